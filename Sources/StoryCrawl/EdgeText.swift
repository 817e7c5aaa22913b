import StoryModel

/// The bytes of an ``EdgeTable``'s texts: an array of their own for a table made by a crawl, or,
/// for a table read from a kept graph, the bytes where they are in the mapped file, copied only if
/// the table is then added to. The texts are most of a kept graph (5 MB of its 7 at 10,000
/// stories), and a rebuild whose edges did not move uses the table as it was read.
struct EdgeText: @unchecked Sendable {
    // Safe to share: `borrowed` is only read, and `file` keeps it mapped.
    private var owned: [UInt8] = []
    /// The file `borrowed` is in; nil when the bytes are `owned`.
    private var file: MappedFile?
    private var borrowed = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    init() {}

    /// The bytes `part` of `file`, used where they are.
    init(borrowing part: UnsafeRawBufferPointer, of file: MappedFile) {
        precondition(file.contains(part), "the texts are bytes of the file")
        self.file = file
        borrowed = part.assumingMemoryBound(to: UInt8.self)
    }

    var count: Int { file == nil ? owned.count : borrowed.count }

    /// Whether the bytes are read where they are in a mapped file.
    var isInPlace: Bool { file != nil }

    subscript(index: Int) -> UInt8 {
        file == nil ? owned[index] : borrowed[index]
    }

    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if file == nil { return try owned.withUnsafeBufferPointer(body) }
        return try body(borrowed)
    }

    mutating func reserveCapacity(_ minimumCapacity: Int) {
        makeOwned()
        owned.reserveCapacity(minimumCapacity)
    }

    mutating func append(_ byte: UInt8) {
        makeOwned()
        owned.append(byte)
    }

    /// Appends `number` as ``ByteRecordWriter/append(number:to:)`` writes it.
    mutating func append(number: UInt64) {
        makeOwned()
        ByteRecordWriter.append(number: number, to: &owned)
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        makeOwned()
        owned.append(contentsOf: bytes)
    }

    /// Appends the bytes at `range` of `other`.
    mutating func append(_ range: Range<Int>, of other: EdgeText) {
        other.withUnsafeBufferPointer { append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Copies borrowed bytes into an array of this text's own, to be added to.
    private mutating func makeOwned() {
        guard file != nil else { return }
        owned = Array(borrowed)
        file = nil
        borrowed = UnsafeBufferPointer(start: nil, count: 0)
    }
}
