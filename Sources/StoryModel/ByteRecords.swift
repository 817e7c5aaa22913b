import Foundation

/// The build cache's binary records: unsigned LEB128 numbers, strings by their index in one
/// table of every distinct string (a cache names the same UUIDs, field paths and dates over and
/// over), and JSON values in a tagged form of those. A cache file is read by mapping it, not
/// parsed as JSON text.
///
/// A file is the magic line, the size the string table had when last written whole, the string
/// table (a count, then each string's length and UTF-8 bytes), then the records.
///
/// A writer may continue the file a reader read (``init(magic:continuing:)``): it keeps that
/// file's table, so the records of the stories that did not change are copied as they are
/// (``append(record:)``) rather than encoded again. The table then keeps the strings of the
/// records left out, until it has grown enough to be written whole again
/// (``ByteRecordReader/isWorthContinuing``).
public struct ByteRecordWriter {
    private let magic: String
    /// The records: the pieces finished (a large one kept as it was given, see
    /// ``part(_:)``), then the one being written.
    private var finished: [FileChunks.Chunk] = []
    private var body: [UInt8] = []
    private var strings: [String] = []
    /// The strings this writer added to the table, numbered from 0 after the `tableContinued`
    /// strings of the table it continues. A writer that continues a table does not look those
    /// up (it would hash every one of them to write a few records): a string of the old table
    /// it writes is added again, and goes when the table is next written whole.
    private var added = StringTableIndex()
    private var tableContinued = 0
    /// The table's size when last written whole; nil for a table of this writer's alone.
    private var wholeTableCount: Int?

    public init(magic: String) {
        self.magic = magic
    }

    /// A writer of a file that continues the one `reader` read: with its string table, to which
    /// new strings are added, so that records of that file can be copied into this one.
    public init(magic: String, continuing reader: ByteRecordReader) {
        self.magic = magic
        strings = reader.table.strings
        tableContinued = strings.count
        wholeTableCount = reader.table.wholeTableCount
    }

    /// The whole file: the magic line, the string table and the records.
    public var bytes: [UInt8] { file.bytes }

    /// The whole file, in the pieces it was written in.
    public var file: FileChunks {
        var header = Array(magic.utf8)
        Self.append(number: UInt64(wholeTableCount ?? strings.count), to: &header)
        Self.append(number: UInt64(strings.count), to: &header)
        for string in strings { Self.append(inline: string, to: &header) }
        return FileChunks(chunks: [.bytes(header)] + records.chunks)
    }

    /// The records written so far, without the magic line and the table: for a part of a file
    /// that uses no strings of the table (``inlineString(_:)``), to follow a part copied as it was.
    public var records: FileChunks { FileChunks(chunks: finished + [.bytes(body)]) }

    public mutating func number(_ value: UInt64) { Self.append(number: value, to: &body) }

    /// The record at `range` of `file`, the file this writer continues, as it is there (see
    /// ``ByteRecordReader/offset``).
    public mutating func append(record range: Range<Int>, of file: Data) {
        body.append(contentsOf: file[range])
    }

    /// The records in `region` of `file`, the file this writer continues, as they are there, but
    /// those at `replaced` (records in `region`, in order): in the place of each, `replace` is
    /// called with its index in `replaced` to write what stands there now, if anything. Each run
    /// between them is kept as a piece of `file` (mapped, most often), written from it, not
    /// copied: a rebuild writes a cache file again by encoding only what changed.
    public mutating func append(
        records region: Range<Int>, of file: Data, replacing replaced: [Range<Int>], with replace: (inout ByteRecordWriter, Int) -> Void
    ) {
        var unwritten = region.lowerBound
        for (index, record) in replaced.enumerated() {
            if unwritten < record.lowerBound { append(piece: .mapped(file[unwritten..<record.lowerBound])) }
            replace(&self, index)
            unwritten = record.upperBound
        }
        if unwritten < region.upperBound { append(piece: .mapped(file[unwritten..<region.upperBound])) }
    }

    public mutating func number(_ value: Int) { number(UInt64(bitPattern: Int64(value))) }

    /// A string in the table, by its index there: one this writer added already (byte for byte)
    /// is not added again.
    public mutating func string(_ value: String) {
        let (number, isNew) = added.number(of: value)
        if isNew { strings.append(value) }
        self.number(tableContinued + number)
    }

    /// A string written where it stands, its length then its UTF-8 bytes, not put in the table:
    /// for strings that change from one file to the next (file digests), which a writer that
    /// continues a table would otherwise add to it every time.
    public mutating func inlineString(_ value: String) { Self.append(inline: value, to: &body) }

    /// Where the pieces ``beginRecord()`` ends wait until the file is written, instead of in
    /// memory: for a cache filled while a large build runs (the reference cache, from the crawl
    /// to the end). Nil to keep them in memory.
    public var parking: TapeStore?

    /// Ends the piece being written, between two records, once it has grown past a mebibyte: a
    /// large file is then held in pieces of about that size while it is written, not in one
    /// array that doubled as it grew (up to twice the file's size at once; 100 MB for the
    /// parsed files of 100,000 stories), and each piece is parked when there is a ``parking``.
    public mutating func beginRecord() {
        guard body.count >= 1 << 20 else { return }
        if let parking, let range = body.withUnsafeBytes(parking.keep) {
            finished.append(.parked(parking, range))
        } else {
            finished.append(.bytes(body))
        }
        body = []
    }

    /// What `write` writes, preceded by its length in bytes: a reader may pass over it
    /// (``ByteRecordReader/skip(_:)``) and read it only when asked for it.
    public mutating func lengthPrefixed(_ write: (inout ByteRecordWriter) -> Void) {
        let start = body.count
        let pieces = finished.count
        write(&self)
        // The length goes in front of what `write` wrote, which must so be in the current piece.
        precondition(finished.count == pieces, "a length-prefixed record cannot hold a part or raw bytes of 64 KiB or more")
        var length: [UInt8] = []
        Self.append(number: UInt64(body.count - start), to: &length)
        body.insert(contentsOf: length, at: start)
    }

    /// A file of its own, written by another writer (``file``) with its own string table,
    /// preceded by its length: the parts of a file can so be encoded on several threads
    /// (``ByteRecordReader/part()``). Its pieces are kept as they are, not copied.
    public mutating func part(_ file: FileChunks) {
        number(file.count)
        for chunk in file.chunks { append(piece: chunk) }
    }

    /// Bytes as they are, preceded by their count: an array of numbers in memory order.
    public mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        number(bytes.count)
        body.append(contentsOf: bytes)
    }

    /// Bytes as they are, preceded by their count, kept as the array they are rather than
    /// copied when they are many (see ``ByteRecordReader/raw()``).
    public mutating func raw(_ bytes: [UInt8]) {
        number(bytes.count)
        append(piece: .bytes(bytes))
    }

    /// Appends `piece` to the records: copied when small and in memory, else kept as its own piece.
    private mutating func append(piece: FileChunks.Chunk) {
        if piece.count < 65_536 {
            switch piece {
            case .bytes(let bytes): return body.append(contentsOf: bytes)
            case .mapped(let data): return body.append(contentsOf: data)
            case .parked: break
            }
        }
        finished.append(.bytes(body))
        finished.append(piece)
        body = []
    }

    /// A string or its absence.
    public mutating func optionalString(_ value: String?) {
        number(value == nil ? 0 : 1)
        if let value { string(value) }
    }

    /// A string written in place (``inlineString(_:)``) or its absence.
    public mutating func optionalInlineString(_ value: String?) {
        number(value == nil ? 0 : 1)
        if let value { inlineString(value) }
    }

    /// A JSON value: a tag (null, false, true, number, string, array, object, string in place),
    /// then its parts. With `inlineStrings`, string values are written in place (``inlineString(_:)``)
    /// and only keys go in the table: for values most of which are written once (a story's
    /// UUID, name and slug), which would make the table as large as the file.
    public mutating func json(_ value: JSONValue, inlineStrings: Bool = false) {
        switch value {
        case .null: number(0)
        case .bool(let bool): number(bool ? 2 : 1)
        case .number(let double): number(3); number(double.bitPattern)
        case .string(let string) where inlineStrings: number(7); inlineString(string)
        case .string(let string): number(4); self.string(string)
        case .array(let elements):
            number(5)
            number(elements.count)
            for element in elements { json(element, inlineStrings: inlineStrings) }
        case .object(let object):
            number(6)
            number(object.count)
            for entry in object {
                string(entry.key)
                json(entry.value, inlineStrings: inlineStrings)
            }
        }
    }

    /// A string's length, then its UTF-8 bytes.
    private static func append(inline value: String, to bytes: inout [UInt8]) {
        var value = value  // withUTF8 may make the storage contiguous, so it needs a var
        value.withUTF8 { utf8 in
            append(number: UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Appends `value` to `bytes` as an unsigned LEB128 number, as every record's numbers are.
    public static func append(number value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}

/// A file's string table, as a reader read it: what reading some of its records later takes
/// (``ByteRecordReader/init(_:table:at:)``), without reading the table again.
public struct ByteRecordTable: Sendable {
    /// The strings, by their index.
    fileprivate(set) var strings: [String] = []
    /// The table's size when last written whole.
    fileprivate var wholeTableCount = 0
}

/// Reads what ``ByteRecordWriter`` wrote. Every read checks its bounds and returns nil past the
/// end or on anything malformed: a cache file may be truncated or corrupt, and then is ignored.
/// It reads the caller's buffer in place, so it must not outlive it.
public struct ByteRecordReader {
    private let bytes: UnsafeRawBufferPointer
    /// Where the next read starts, from the start of the file: the bytes between two offsets are
    /// the records read in between, to be copied by a writer that continues this file.
    public private(set) var offset = 0
    public private(set) var table = ByteRecordTable()

    /// A reader of `bytes` past `magic` and the string table; nil when they do not start with
    /// the magic line or the table cannot be read.
    public init?(_ bytes: UnsafeRawBufferPointer, magic: String) {
        self.bytes = bytes
        let expected = Array(magic.utf8)
        guard bytes.count >= expected.count, bytes.prefix(expected.count).elementsEqual(expected) else { return nil }
        offset = expected.count
        guard let whole = count(), let count = count() else { return nil }
        table.wholeTableCount = whole
        table.strings.reserveCapacity(count)
        for _ in 0..<count {
            guard let string = inlineString() else { return nil }
            table.strings.append(string)
        }
    }

    /// A reader of the file whose string table is `table` (its bytes mapped again as `bytes`),
    /// from `offset` on: a cache reads a record only when asked for it.
    public init(_ bytes: UnsafeRawBufferPointer, table: ByteRecordTable, at offset: Int) {
        self.bytes = bytes
        self.table = table
        self.offset = min(offset, bytes.count)
    }

    /// Moves `offset` forward by `count` bytes, past a record not read now; false when that is past the end.
    public mutating func skip(_ count: Int) -> Bool {
        guard count <= bytes.count - offset else { return false }
        offset += count
        return true
    }

    /// Where the part ``ByteRecordWriter/part(_:)`` wrote is, past its length, with the reader
    /// moved over it; nil when it runs past the end. Read it with a reader of its own.
    public mutating func part() -> Range<Int>? {
        guard let length = count() else { return nil }
        let start = offset
        return skip(length) ? start..<offset : nil
    }

    public var isAtEnd: Bool { offset == bytes.count }

    /// The bytes ``ByteRecordWriter/raw(_:)`` wrote, in place; nil when they run past the end.
    public mutating func raw() -> UnsafeRawBufferPointer? {
        part().map { UnsafeRawBufferPointer(rebasing: bytes[$0]) }
    }

    /// Whether a writer should continue this file (``ByteRecordWriter/init(magic:continuing:)``):
    /// false once its table holds more than twice the strings it had when written whole (and a
    /// thousand more), the rest being strings of records left out since.
    public var isWorthContinuing: Bool { table.strings.count <= 2 * table.wholeTableCount + 1024 }

    public mutating func number() -> UInt64? {
        Self.number(in: bytes, at: &offset)
    }

    /// The number ``ByteRecordWriter/append(number:to:)`` wrote at `offset` of `bytes`, with
    /// `offset` moved past it; nil when it runs past the end or past 64 bits.
    /// Inlinable, with the one-byte number (most of them) read at once: a rebuild of 10,000
    /// stories reads half a million, and the call alone cost more than the byte.
    @inlinable
    public static func number(in bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        if offset < bytes.count, bytes[offset] < 0x80 {
            offset += 1
            return UInt64(bytes[offset - 1])
        }
        return longNumber(in: bytes, at: &offset)
    }

    /// ``number(in:at:)`` of more than one byte, or none. With ten bytes there to read, the first
    /// eight are read at once: the number's end is the first byte below 0x80, and their seven
    /// bits a byte are put side by side in three steps; a ninth and a tenth byte (a time in
    /// nanoseconds takes nine) are read after. A rebuild of 10,000 stories reads 80,000 such
    /// numbers, and reading them a byte at a time was 1.5% of its instructions.
    @usableFromInline
    static func longNumber(in bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        if offset <= bytes.count - 10 {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let ends = ~word & 0x8080_8080_8080_8080
            let length = ends == 0 ? 8 : ends.trailingZeroBitCount / 8 + 1
            var value = word & 0x7F7F_7F7F_7F7F_7F7F & (length == 8 ? ~0 : (1 << (8 * UInt64(length))) - 1)
            value = (value & 0x007F_007F_007F_007F) | ((value & 0x7F00_7F00_7F00_7F00) >> 1)
            value = (value & 0x0000_3FFF_0000_3FFF) | ((value & 0x3FFF_0000_3FFF_0000) >> 2)
            value = (value & 0x0000_0000_0FFF_FFFF) | ((value & 0x0FFF_FFFF_0000_0000) >> 4)
            if ends != 0 {
                offset += length
                return value
            }
            let ninth = bytes[offset + 8], tenth = bytes[offset + 9]
            if ninth < 0x80 {
                offset += 9
                return value | UInt64(ninth) << 56
            }
            if tenth < 0x80 {
                offset += 10
                return value | UInt64(ninth & 0x7F) << 56 | UInt64(tenth) << 63
            }
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    public mutating func int() -> Int? { number().map { Int(Int64(bitPattern: $0)) } }

    /// A count of things still to read: nil unless it is at most the bytes left (each thing
    /// takes one at least), so that a corrupt count cannot make a reader reserve or loop without end.
    public mutating func count() -> Int? {
        guard let value = number(), value <= UInt64(bytes.count - offset) else { return nil }
        return Int(value)
    }

    /// A number below `limit`, such as a position in a list read before; nil otherwise.
    public mutating func position(below limit: Int) -> Int? {
        guard let value = number(), value < UInt64(max(0, limit)) else { return nil }
        return Int(value)
    }

    public mutating func string() -> String? {
        stringIndex().map { table.strings[$0] }
    }

    /// The index in the table of a string ``string()`` would read; nil when it is not one.
    mutating func stringIndex() -> Int? {
        guard let index = number(), index < UInt64(table.strings.count) else { return nil }
        return Int(index)
    }

    /// A string as ``ByteRecordWriter/inlineString(_:)`` wrote it.
    public mutating func inlineString() -> String? {
        guard let length = count() else { return nil }
        defer { offset += length }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
    }

    /// A string, or nil in `.some` for an absent one; nil when unreadable.
    public mutating func optionalString() -> String?? {
        switch number() {
        case 0: return .some(nil)
        case 1: return string().map { .some($0) }
        default: return nil
        }
    }

    /// A string as ``ByteRecordWriter/optionalInlineString(_:)`` wrote it, or nil in `.some` for
    /// an absent one; nil when unreadable.
    public mutating func optionalInlineString() -> String?? {
        switch number() {
        case 0: return .some(nil)
        case 1: return inlineString().map { .some($0) }
        default: return nil
        }
    }

    /// A JSON value as ``ByteRecordWriter/json(_:)`` wrote it, nested at most `depth` deep.
    public mutating func json(depth: Int = 512) -> JSONValue? {
        guard depth > 0 else { return nil }
        switch number() {
        case 0: return .null
        case 1: return .bool(false)
        case 2: return .bool(true)
        case 3: return number().map { .number(Double(bitPattern: $0)) }
        case 4: return string().map(JSONValue.string)
        case 5:
            guard let count = count() else { return nil }
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count {
                guard let element = json(depth: depth - 1) else { return nil }
                elements.append(element)
            }
            return .array(elements)
        case 6:
            guard let count = count() else { return nil }
            var entries: [JSONObject.Entry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                guard let key = string(), let value = json(depth: depth - 1) else { return nil }
                entries.append(JSONObject.Entry(key: key, value: value))
            }
            return .object(JSONObject(distinctEntries: entries))
        case 7: return inlineString().map(JSONValue.string)
        default: return nil
        }
    }
}

extension ByteRecordReader {
    /// Moves past a JSON value as ``json(depth:)`` reads it, checking all it checks without making
    /// the value: false where it would return nil. A value passed over so can be read later, from
    /// its offset, by a reader of the same bytes and table.
    public mutating func skipJSON(depth: Int = 512) -> Bool {
        guard depth > 0 else { return false }
        switch number() {
        case 0, 1, 2: return true
        case 3: return number() != nil
        case 4: return string() != nil
        case 5:
            guard let count = count() else { return false }
            for _ in 0..<count where !skipJSON(depth: depth - 1) { return false }
            return true
        case 6:
            guard let count = count() else { return false }
            for _ in 0..<count where string() == nil || !skipJSON(depth: depth - 1) { return false }
            return true
        case 7:
            guard let length = count() else { return false }
            return skip(length)
        default: return false
        }
    }
}

extension ByteRecordWriter {
    /// Fixed-width numbers as they are in memory (little-endian), preceded by their bytes'
    /// count: a whole array written, and read back (``ByteRecordReader/numbers(count:)``), at once.
    public mutating func numbers<Element: FixedWidthInteger>(_ values: [Element]) {
        #if _endian(big)
        values.map(\.littleEndian).withUnsafeBytes { raw($0) }
        #else
        values.withUnsafeBytes { raw($0) }
        #endif
    }
}

extension ByteRecordReader {
    /// The `count` numbers ``ByteRecordWriter/numbers(_:)`` wrote; nil when there are not that many.
    public mutating func numbers<Element: FixedWidthInteger>(count: Int) -> [Element]? {
        guard let bytes = raw(), bytes.count == count * MemoryLayout<Element>.size else { return nil }
        let values = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
            initialized = count
        }
        #if _endian(big)
        return values.map { Element(littleEndian: $0) }
        #else
        return values
        #endif
    }
}
