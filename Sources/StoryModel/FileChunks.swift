import Foundation

/// A file's bytes as the pieces they were made in, written one after the other: a kept-content
/// file of tens of megabytes is then neither joined into one array nor copied into a `Data` to
/// be written, each of which held a second copy of it in memory.
public struct FileChunks: Sendable {
    /// A piece of the file: bytes in memory, or bytes parked in a ``TapeStore`` until the file
    /// is written (see ``ByteRecordWriter/parking``).
    public enum Chunk: Sendable {
        case bytes([UInt8])
        case parked(TapeStore, Range<Int64>)
        /// Bytes of a file read, most often by mapping it (one a rebuild keeps much of as it
        /// was), written from where they are: copying seven megabytes of the kept graph into an
        /// array cost a one-story rebuild of 10,000 pages 1% of its time.
        case mapped(Data)

        /// How many bytes the piece has.
        public var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .parked(_, let range): range.count
            case .mapped(let data): data.count
            }
        }

        /// The piece's bytes, read back when parked.
        public var bytes: [UInt8] {
            switch self {
            case .bytes(let bytes): bytes
            case .parked(let store, let range): store.bytes(at: range)
            case .mapped(let data): Array(data)
            }
        }

        /// Calls `body` with the piece's bytes, in place where they are in memory.
        func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            switch self {
            case .bytes(let bytes): try bytes.withUnsafeBytes(body)
            case .parked: try bytes.withUnsafeBytes(body)
            case .mapped(let data): try data.withUnsafeBytes(body)
            }
        }
    }

    public var chunks: [Chunk]

    public init(_ chunks: [[UInt8]]) {
        self.chunks = chunks.map(Chunk.bytes)
    }

    public init(chunks: [Chunk]) {
        self.chunks = chunks
    }

    /// The file's bytes, joined.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for chunk in chunks { bytes.append(contentsOf: chunk.bytes) }
        return bytes
    }

    /// How many bytes the file has.
    public var count: Int { chunks.reduce(0) { $0 + $1.count } }

    /// Writes the file at `url` atomically: into a file of its own beside it, renamed over it
    /// once whole, so that a reader never finds it cut short.
    public func write(to url: URL) throws {
        try POSIXFile.replace(url) { descriptor, path in
            for chunk in chunks {
                try chunk.withUnsafeBytes { try POSIXFile.write($0, to: descriptor, path: path) }
            }
        }
    }
}
