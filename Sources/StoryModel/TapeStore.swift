import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tapes parked in a file for as long as a build runs, so that a large site's content is not
/// all held in memory from the load to the last page (see ``Story/storingContent(in:)``): a
/// story's content is read back, as the bytes that were written, each time a crawl or a page
/// asks for it. The file has no name (it is unlinked as soon as it is made) and goes
/// when the last story that refers to it does, or with the process.
///
/// Its pages sit in the kernel's page cache, which may write them to disk and drop them under
/// memory pressure, rather than in the process's own memory.
public final class TapeStore: @unchecked Sendable {
    // Safe to share: `end` is only touched holding the lock; reads and writes at offsets
    // (`pread`, `pwrite`) need no lock.
    private let lock = NSLock()
    private let descriptor: Int32
    /// Where the next tape goes.
    private var end: Int64 = 0

    /// Where a tape is in the file: its words, then its string bytes.
    public struct Location: Sendable {
        let offset: Int64
        let wordCount: Int
        let stringCount: Int
    }

    /// A store in a file without a name in `folder`; nil when none can be made there.
    public init?(folder: String) {
        // Made with a name, which is unlinked at once.
        var template = Array((folder + "/.storysite-tapes-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    /// A store beside `item` (the output folder: on the disk the build writes to), else in the
    /// temporary folder; nil when neither can hold one.
    public static func beside(_ item: URL) -> TapeStore? {
        TapeStore(folder: item.deletingLastPathComponent().path) ?? TapeStore(folder: NSTemporaryDirectory())
    }

    deinit {
        close(descriptor)
    }

    /// Writes `tape` to the file; nil when it cannot be written (a full disk), and the tape is
    /// then to be kept in memory.
    func keep(_ tape: JSONTape) -> Location? {
        let wordBytes = tape.words.count * MemoryLayout<UInt64>.size
        let offset = reserve(wordBytes + tape.strings.count)
        let written = tape.words.withUnsafeBytes { write($0, at: offset) }
            && tape.strings.withUnsafeBytes { write($0, at: offset + Int64(wordBytes)) }
        return written ? Location(offset: offset, wordCount: tape.words.count, stringCount: tape.strings.count) : nil
    }

    /// Writes `bytes` to the file and returns where they are; nil when they cannot be written.
    public func keep(_ bytes: UnsafeRawBufferPointer) -> Range<Int64>? {
        let offset = reserve(bytes.count)
        return write(bytes, at: offset) ? offset..<offset + Int64(bytes.count) : nil
    }

    /// The bytes ``keep(_:)-(UnsafeRawBufferPointer)`` wrote at `range`, read back.
    public func bytes(at range: Range<Int64>) -> [UInt8] {
        read(range.count, at: range.lowerBound)
    }

    /// Where `count` more bytes go.
    private func reserve(_ count: Int) -> Int64 {
        lock.withLock {
            defer { end += Int64(count) }
            return end
        }
    }

    /// The tape at `location`, read back.
    func tape(at location: Location) -> JSONTape {
        JSONTape(
            words: read(location.wordCount, at: location.offset),
            strings: read(location.stringCount, at: location.offset + Int64(location.wordCount * MemoryLayout<UInt64>.size)))
    }

    /// `count` elements read from `offset`, as their bytes were written.
    private func read<Element: BitwiseCopyable>(_ count: Int, at offset: Int64) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
            initialized = count
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// Reads what ``keep(_:)`` wrote. The file is this process's own and has no name: a read
    /// that fails is the machine failing (an I/O error), which no build can go on from.
    private func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                fatalError("storysite: cannot read back story content parked in a temporary file: \(String(cString: strerror(errno)))")
            }
            done += count
        }
    }
}
