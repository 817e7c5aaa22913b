import Foundation

/// A JSON document as one flat array of 64-bit words in document order, with the UTF-8 bytes of
/// every string (escapes decoded) in one buffer beside it: how storysite holds a story file's
/// content without an object per value, in the spirit of simdjson's tape. The crawl reads it in
/// place (``Reader``); a ``JSONValue`` tree is made from it only where one is asked for
/// (``value(at:)``).
///
/// Each value is one word, but a number, which is two (the tag, then the `Double`'s bits):
/// - the top four bits are its ``Kind``;
/// - a string's low 32 bits are where its bytes start in ``strings``, the next 28 bits their count;
/// - an array's or object's low 32 bits are the index of the first word after it, the next 28
///   bits how many elements or entries it has; an object's entries follow it as a key (a string
///   word) and a value each.
///
/// Objects are as ``JSONObject`` makes them: keys in document order, and a repeated key holds
/// the last value at the first key's place.
public final class JSONTape: Sendable {
    /// The values, in document order; the document's root is at index 0.
    let words: [UInt64]
    /// The bytes of every string and key, one after the other.
    let strings: [UInt8]

    init(words: [UInt64], strings: [UInt8]) {
        self.words = words
        self.strings = strings
    }

    /// Parses a UTF-8 JSON document held in bytes, as read from a file. Throws
    /// ``JSONParseError`` with the line and column of the first problem, as ``JSONValue`` does.
    public convenience init(parsing bytes: [UInt8]) throws(JSONParseError) {
        let parsed: Result<(words: [UInt64], strings: [UInt8]), JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer)
            return Result { () throws(JSONParseError) in try parser.parseDocument() }
        }
        let (words, strings) = try parsed.get()
        self.init(words: words, strings: strings)
    }

    /// The tape of `value`: for content that was built as a tree (from the API, or merged from
    /// translations) and is to be read as a tape.
    ///
    /// Its arrays are copied to their exact size: the builder's grew by doubling, and a tape
    /// made for each story's head (see ``Story/storingContent(in:)``) held twice the memory.
    public convenience init(encoding value: JSONValue) {
        var builder = JSONTapeBuilder()
        builder.append(value)
        self.init(words: builder.words.withUnsafeBufferPointer(Array.init), strings: builder.strings.withUnsafeBufferPointer(Array.init))
    }

    /// What a value is.
    public enum Kind: UInt64, Sendable {
        case null = 0, `false`, `true`, number, string, array, object
    }

    /// The tree of the value at `index` (0 for the whole document).
    public func value(at index: Int = 0) -> JSONValue {
        withReader { $0.value(at: index) }
    }

    /// Calls `body` with a reader of this tape, valid only while `body` runs.
    public func withReader<Result>(_ body: (Reader) throws -> Result) rethrows -> Result {
        try Reader.reading(words, strings, body)
    }

    /// Reads a tape in place, by the index of a value's first word: no reference counting and no
    /// allocation, but for the strings and trees it is asked to make.
    public struct Reader {
        @usableFromInline let words: UnsafeBufferPointer<UInt64>
        @usableFromInline let strings: UnsafeBufferPointer<UInt8>

        init(words: UnsafeBufferPointer<UInt64>, strings: UnsafeBufferPointer<UInt8>) {
            self.words = words
            self.strings = strings
        }

        /// Calls `body` with a reader of these words and strings, valid only while it runs.
        static func reading<Result>(_ words: [UInt64], _ strings: [UInt8], _ body: (Reader) throws -> Result) rethrows -> Result {
            try words.withUnsafeBufferPointer { words in
                try strings.withUnsafeBufferPointer { strings in try body(Reader(words: words, strings: strings)) }
            }
        }

        /// The kind of the value at `index`.
        @inlinable public func kind(at index: Int) -> Kind {
            Kind(rawValue: words[index] >> 60)!
        }

        /// The index of the value after the one at `index`.
        @inlinable public func next(after index: Int) -> Int {
            let word = words[index]
            switch word >> 60 {
            case Kind.number.rawValue: return index + 2
            case Kind.array.rawValue, Kind.object.rawValue: return Int(truncatingIfNeeded: word & 0xFFFF_FFFF)
            default: return index + 1
            }
        }

        /// How many elements the array, or entries the object, at `index` has.
        @inlinable public func count(at index: Int) -> Int {
            Int(truncatingIfNeeded: words[index] >> 32 & 0x0FFF_FFFF)
        }

        /// The bytes of the string (or key) at `index`.
        @inlinable public func bytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
            let word = words[index]
            let start = Int(truncatingIfNeeded: word & 0xFFFF_FFFF)
            let count = Int(truncatingIfNeeded: word >> 32 & 0x0FFF_FFFF)
            return UnsafeBufferPointer(rebasing: strings[start..<start + count])
        }

        /// The string at `index`, when it is one.
        @inlinable public func string(at index: Int) -> String? {
            guard kind(at: index) == .string else { return nil }
            return String(decoding: bytes(at: index), as: UTF8.self)
        }

        /// Whether the value at `index` is a string whose bytes are `text`'s.
        @inlinable public func isString(at index: Int, equalTo text: StaticString) -> Bool {
            kind(at: index) == .string && Self.equal(bytes(at: index), text)
        }

        /// The number at `index`, when it is one.
        @inlinable public func number(at index: Int) -> Double? {
            guard kind(at: index) == .number else { return nil }
            return Double(bitPattern: words[index + 1])
        }

        /// The number at `index`, or the one a string there holds, as ``JSONValue/numberValue``
        /// reads a tree's.
        public func numberValue(at index: Int) -> Double? {
            switch kind(at: index) {
            case .number: return number(at: index)
            case .string: return Double(String(decoding: bytes(at: index), as: UTF8.self))
            default: return nil
            }
        }

        /// Whether the values at `left` and `right` are equal as their ``JSONValue`` trees are:
        /// strings and keys as Swift compares them (canonically equivalent ones are equal),
        /// objects key by key in order.
        public func valuesEqual(_ left: Int, _ right: Int) -> Bool {
            let kind = kind(at: left)
            guard kind == self.kind(at: right) else { return false }
            switch kind {
            case .null, .false, .true:
                return true
            case .number:
                return number(at: left) == number(at: right)
            case .string:
                return textsEqual(left, right)
            case .array, .object:
                guard count(at: left) == count(at: right) else { return false }
                // An array's elements, or an object's keys each followed by its value.
                var leftItem = left + 1, rightItem = right + 1
                for _ in 0..<count(at: left) {
                    if kind == .object {
                        guard textsEqual(leftItem, rightItem) else { return false }
                        leftItem += 1
                        rightItem += 1
                    }
                    guard valuesEqual(leftItem, rightItem) else { return false }
                    leftItem = next(after: leftItem)
                    rightItem = next(after: rightItem)
                }
                return true
            }
        }

        /// Whether the strings (or keys) at `left` and `right` are equal as Swift strings.
        private func textsEqual(_ left: Int, _ right: Int) -> Bool {
            let leftBytes = bytes(at: left), rightBytes = bytes(at: right)
            return Self.equal(leftBytes, rightBytes)
                || String(decoding: leftBytes, as: UTF8.self) == String(decoding: rightBytes, as: UTF8.self)
        }

        /// Calls `body` with the index of each key of the object at `index` and of its value, in
        /// document order, until it returns false.
        @inlinable public func forEachEntry(ofObject index: Int, _ body: (_ key: Int, _ value: Int) -> Bool) {
            var key = index + 1
            for _ in 0..<count(at: index) {
                let value = key + 1
                guard body(key, value) else { return }
                key = next(after: value)
            }
        }

        /// Calls `body` with the position and index of each element of the array at `index`.
        @inlinable public func forEachElement(ofArray index: Int, _ body: (_ position: Int, _ element: Int) -> Void) {
            var element = index + 1
            for position in 0..<count(at: index) {
                body(position, element)
                element = next(after: element)
            }
        }

        /// The index of the value of `key` in the object at `index`; nil when it is not an
        /// object or has no such key.
        @inlinable public func value(forKey key: StaticString, inObject index: Int) -> Int? {
            value(forKeyBytes: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), inObject: index)
        }

        /// The index of the value of `key` in the object at `index`, for a key known only when
        /// the build runs. Disfavoured so that a literal key takes the `StaticString` overload,
        /// whose bytes need no string at all.
        @_disfavoredOverload
        public func value(forKey key: String, inObject index: Int) -> Int? {
            key.withUTF8Bytes { value(forKeyBytes: $0, inObject: index) }
        }

        /// The index of the value of the key of these bytes in the object at `index`.
        @inlinable func value(forKeyBytes key: UnsafeBufferPointer<UInt8>, inObject index: Int) -> Int? {
            guard kind(at: index) == .object else { return nil }
            var found: Int?
            forEachEntry(ofObject: index) { keyIndex, value in
                guard Self.equal(bytes(at: keyIndex), key) else { return true }
                found = value
                return false
            }
            return found
        }

        /// The tree of the value at `index`.
        public func value(at index: Int) -> JSONValue {
            let word = words[index]
            switch Kind(rawValue: word >> 60)! {
            case .null: return .null
            case .false: return .bool(false)
            case .true: return .bool(true)
            case .number: return .number(Double(bitPattern: words[index + 1]))
            case .string: return .string(String(decoding: bytes(at: index), as: UTF8.self))
            case .array:
                var elements: [JSONValue] = []
                elements.reserveCapacity(count(at: index))
                forEachElement(ofArray: index) { _, element in elements.append(value(at: element)) }
                return .array(elements)
            case .object:
                return .object(object(at: index))
            }
        }

        /// The tree of the object at `index`, without the keys `skipping` names.
        public func object(at index: Int, skipping skipped: StaticString? = nil) -> JSONObject {
            var entries: [JSONObject.Entry] = []
            entries.reserveCapacity(count(at: index))
            forEachEntry(ofObject: index) { key, value in
                if let skipped, Self.equal(bytes(at: key), skipped) { return true }
                entries.append(JSONObject.Entry(key: String(decoding: bytes(at: key), as: UTF8.self), value: self.value(at: value)))
                return true
            }
            return JSONObject(distinctEntries: entries)
        }

        /// Whether `bytes` are `text`'s UTF-8 bytes.
        @inlinable public static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
            bytes.count == text.utf8CodeUnitCount && equal(bytes, UnsafeBufferPointer(start: text.utf8Start, count: bytes.count))
        }

        @inlinable static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count == other.count else { return false }
            guard let left = bytes.baseAddress, let right = other.baseAddress else { return true }
            return memcmp(left, right, bytes.count) == 0
        }
    }
}

/// Appends values to a tape: the parser's output, and the encoding of a tree.
struct JSONTapeBuilder {
    var words: [UInt64] = []
    var strings: [UInt8] = []
    private var shortStrings = ShortStringIndex()

    /// The most a tape's strings, words or a container's count may take (the bits they have).
    static let largestOffset = Int(UInt32.max)
    static let largestCount = 0x0FFF_FFFF

    mutating func appendNull() { words.append(JSONTape.Kind.null.rawValue << 60) }

    mutating func append(_ bool: Bool) { words.append((bool ? JSONTape.Kind.true : .false).rawValue << 60) }

    mutating func append(_ number: Double) {
        words.append(JSONTape.Kind.number.rawValue << 60)
        words.append(number.bitPattern)
    }

    /// Appends a string of `bytes`, which must be valid UTF-8: a short one the tape holds
    /// already names the bytes it has (see ``ShortStringIndex``). Returns where its bytes are in
    /// ``strings``; nil when the tape has no room for it.
    @discardableResult
    mutating func appendString(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard strings.count + bytes.count <= Self.largestOffset, bytes.count <= Self.largestCount else { return nil }
        var offset = strings.count
        if bytes.count <= ShortStringIndex.longest {
            let hash = StringTableIndex.hash(bytes)
            if let shared = strings.withUnsafeBufferPointer({ shortStrings.offset(of: bytes, hash: hash, in: $0) }) {
                offset = shared
            } else {
                shortStrings.add(offset: offset, count: bytes.count, hash: hash)
                strings.append(contentsOf: bytes)
            }
        } else {
            strings.append(contentsOf: bytes)
        }
        words.append(JSONTape.Kind.string.rawValue << 60 | UInt64(bytes.count) << 32 | UInt64(offset))
        return offset..<offset + bytes.count
    }

    /// Starts an array or object; returns its index, for ``finishContainer(at:count:)``.
    mutating func startContainer(_ kind: JSONTape.Kind) -> Int {
        words.append(kind.rawValue << 60)
        return words.count - 1
    }

    /// Ends the container started at `index`, which holds `count` elements or entries; false
    /// when the tape has no room for it.
    @discardableResult
    mutating func finishContainer(at index: Int, count: Int) -> Bool {
        guard words.count <= Self.largestOffset, count <= Self.largestCount else { return false }
        words[index] |= UInt64(count) << 32 | UInt64(words.count)
        return true
    }

    /// Appends the scalar or string at `index` of `reader` as it is: a string still names its
    /// bytes in `reader`'s strings, which the tape being built must share.
    mutating func appendScalar(at index: Int, of reader: JSONTape.Reader) {
        words.append(reader.words[index])
        if reader.kind(at: index) == .number { words.append(reader.words[index + 1]) }
    }

    /// Appends the string at `index` of `reader` cut to its first `count` bytes, as
    /// ``appendScalar(at:of:)`` appends it whole.
    mutating func appendPrefix(ofStringAt index: Int, count: Int, of reader: JSONTape.Reader) {
        words.append(reader.words[index] & ~(UInt64(0x0FFF_FFFF) << 32) | UInt64(count) << 32)
    }

    /// Appends a tree, which must fit in a tape (as every tree made from a parsed one does).
    mutating func append(_ value: JSONValue) {
        switch value {
        case .null: appendNull()
        case .bool(let bool): append(bool)
        case .number(let number): append(number)
        case .string(var string): string.withUTF8 { precondition(appendString($0) != nil, "a string too long for a tape") }
        case .array(let elements):
            let start = startContainer(.array)
            for element in elements { append(element) }
            precondition(finishContainer(at: start, count: elements.count), "an array too large for a tape")
        case .object(let object):
            let start = startContainer(.object)
            for entry in object.entries {
                var key = entry.key
                key.withUTF8 { precondition(appendString($0) != nil, "a key too long for a tape") }
                append(entry.value)
            }
            precondition(finishContainer(at: start, count: object.count), "an object too large for a tape")
        }
    }

    /// Calls `body` with a reader of the tape built so far, valid only while it runs.
    func withReader<Result>(_ body: (JSONTape.Reader) -> Result) -> Result {
        JSONTape.Reader.reading(words, strings, body)
    }

    /// Whether the object started at `start` already has a key of `bytes`, among its first
    /// `count` entries.
    func hasKey(_ bytes: UnsafeBufferPointer<UInt8>, inObjectAt start: Int, entries count: Int) -> Bool {
        withReader { reader in
            var key = start + 1
            for _ in 0..<count {
                if JSONTape.Reader.equal(reader.bytes(at: key), bytes) { return true }
                key = reader.next(after: key + 1)
            }
            return false
        }
    }

    /// Rewrites the object started at `start` (the last value of the tape) as ``JSONObject``
    /// makes one: a repeated key holds its last value at its first place.
    mutating func mergeRepeatedKeys(ofObjectAt start: Int, entries count: Int) {
        let merged = withReader { reader in
            var entries: [JSONObject.Entry] = []
            var key = start + 1
            for _ in 0..<count {
                entries.append(JSONObject.Entry(key: String(decoding: reader.bytes(at: key), as: UTF8.self), value: reader.value(at: key + 1)))
                key = reader.next(after: key + 1)
            }
            return JSONObject(entries)
        }
        words.removeSubrange(start...)
        append(.object(merged))
    }
}
