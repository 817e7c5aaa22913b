import Foundation

/// A malformed JSON document: where (1-based line and column) and what.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(line):\(column): \(message)" }
}

extension JSONValue {
    /// Parses a UTF-8 JSON document. Object keys keep their order; numbers become `Double`.
    /// Throws ``JSONParseError`` with the line and column of the first problem.
    public init(parsing data: Data) throws(JSONParseError) {
        self = try JSONTape(parsing: [UInt8](data)).value()
    }

    /// Parses a UTF-8 JSON document held in bytes, as read from a file.
    public init(parsing bytes: [UInt8]) throws(JSONParseError) {
        self = try JSONTape(parsing: bytes).value()
    }

    /// Parses a JSON document held in a string.
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONTape(parsing: Array(text.utf8)).value()
    }
}

/// A recursive-descent parser over UTF-8 bytes (RFC 8259) into a ``JSONTape``, written for speed
/// on large content folders: no intermediate objects, strings copied straight from the bytes.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    private var tape = JSONTapeBuilder()
    private static let maximumDepth = 512
    /// From this many keys on, an object's keys are appended without a lookup each, and checked
    /// for repeats once at the end.
    private static let largeObject = 64

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The document's tape: its words and strings.
    mutating func parseDocument() throws(JSONParseError) -> (words: [UInt64], strings: [UInt8]) {
        // A UTF-8 byte order mark is tolerated, as editors sometimes write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        tape.words.reserveCapacity(bytes.count / 16)
        tape.strings.reserveCapacity(bytes.count)
        skipWhitespace()
        try parseValue()
        skipWhitespace()
        if position < bytes.count { throw error("unexpected content after the JSON value") }
        // Room was reserved for the document's size; a story keeps its tape for the whole build.
        return (Self.fitted(tape.words), Self.fitted(tape.strings))
    }

    /// `array`, copied without its spare room when that is more than an eighth of it.
    private static func fitted<Element>(_ array: [Element]) -> [Element] {
        array.capacity - array.count > array.count / 8 ? Array(unsafeUninitializedCapacity: array.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: array)
        } : array
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) {
        guard position < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try expectLiteral("true"); tape.append(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); tape.append(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); tape.appendNull()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): tape.append(try parseNumber())
        default: throw error("unexpected character \(describe(bytes[position])), expected a value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) {
        try enterContainer()
        position += 1  // {
        let start = tape.startContainer(.object)
        var count = 0
        var repeatsKey = false
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            try finishContainer(at: start, count: 0)
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key in object") }
            let key = try parseString()
            if count < Self.largeObject, !repeatsKey {
                repeatsKey = tape.strings.withUnsafeBufferPointer { strings in
                    tape.hasKey(UnsafeBufferPointer(rebasing: strings[key]), inObjectAt: start, entries: count)
                }
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw error("expected ':' after object key \"\(String(decoding: tape.strings[key], as: UTF8.self))\"")
            }
            position += 1
            skipWhitespace()
            try parseValue()
            count += 1
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                try finishContainer(at: start, count: count)
                // Large objects were appended unchecked; a repeated key must still replace the
                // earlier value, as it does in small objects.
                if count > Self.largeObject, !repeatsKey { repeatsKey = hasRepeatedKey(inObjectAt: start, entries: count) }
                if repeatsKey { tape.mergeRepeatedKeys(ofObjectAt: start, entries: count) }
                return
            case nil: throw error("unexpected end of file, object is never closed")
            default: throw error("expected ',' or '}' after object value")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) {
        try enterContainer()
        position += 1  // [
        let start = tape.startContainer(.array)
        var count = 0
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            try finishContainer(at: start, count: 0)
            return
        }
        while true {
            skipWhitespace()
            try parseValue()
            count += 1
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                try finishContainer(at: start, count: count)
                return
            case nil: throw error("unexpected end of file, array is never closed")
            default: throw error("expected ',' or ']' after array element")
            }
        }
    }

    private mutating func finishContainer(at start: Int, count: Int) throws(JSONParseError) {
        guard tape.finishContainer(at: start, count: count) else { throw error("the document is too large to read") }
    }

    /// Whether the object at `start`, the tape's last value, has a key more than once, keys
    /// compared as strings are. Keys of ASCII alone are equal exactly when their bytes are, so
    /// they are compared in place, without a string made of each: a manifest of a hundred
    /// thousand files is one such object. Others compare by Unicode equivalence, as strings.
    private func hasRepeatedKey(inObjectAt start: Int, entries count: Int) -> Bool {
        tape.withReader { reader in
            var seen = Set<KeyBytes>(minimumCapacity: count)
            var isASCII = true
            var repeats = false
            reader.forEachEntry(ofObject: start) { key, _ in
                let bytes = reader.bytes(at: key)
                guard bytes.allSatisfy({ $0 < 0x80 }) else {
                    isASCII = false
                    return false
                }
                repeats = !seen.insert(KeyBytes(bytes: bytes)).inserted
                return !repeats
            }
            guard !isASCII else { return repeats }
            var keys = Set<String>(minimumCapacity: count)
            reader.forEachEntry(ofObject: start) { key, _ in
                keys.insert(String(decoding: reader.bytes(at: key), as: UTF8.self))
                return true
            }
            return keys.count < count
        }
    }

    /// A key's bytes on the tape, hashed and compared in place; valid while the tape's reader is.
    private struct KeyBytes: Hashable {
        let bytes: UnsafeBufferPointer<UInt8>

        static func == (lhs: KeyBytes, rhs: KeyBytes) -> Bool {
            JSONTape.Reader.equal(lhs.bytes, rhs.bytes)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    // MARK: Strings

    /// Appends the string at the current position to the tape; returns where its bytes are.
    @discardableResult
    private mutating func parseString() throws(JSONParseError) -> Range<Int> {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes, the bytes stay where they are.
        let plainOr = skipPlainBytes()
        guard position < bytes.count else { throw error("unexpected end of file, string is never closed", at: start - 1) }
        if bytes[position] == UInt8(ascii: "\"") {
            let string = UnsafeBufferPointer(rebasing: bytes[start..<position])
            position += 1
            return try append(string, validating: plainOr >= 0x80, from: start)
        }
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try utf8.withUnsafeBufferPointer { escaped throws(JSONParseError) in try append(escaped, validating: true, from: start) }
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0..<0x20:
                throw error("control character \(describe(byte)) in string; escape it")
            default:
                break  // skipPlainBytes stops only at the three above
            }
            let run = position
            skipPlainBytes()
            utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<position]))
        }
        throw error("unexpected end of file, string is never closed", at: start - 1)
    }

    /// Moves past the bytes that neither end a string, escape nor must be escaped, eight at a
    /// time where it can; returns the OR of those bytes (its high bit: whether any is not ASCII).
    @discardableResult
    private mutating func skipPlainBytes() -> UInt8 {
        var wideOr: UInt64 = 0
        if let base = bytes.baseAddress {
            while position + 8 <= bytes.count {
                let chunk = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let attention = Self.attentionBits(chunk)
                if attention != 0 {
                    let offset = attention.trailingZeroBitCount / 8
                    wideOr |= chunk & ((1 << (8 * offset)) &- 1)
                    position += offset
                    return wideOr & 0x8080_8080_8080_8080 != 0 ? 0x80 : 0
                }
                wideOr |= chunk
                position += 8
            }
        }
        var bytesOr: UInt8 = wideOr & 0x8080_8080_8080_8080 != 0 ? 0x80 : 0
        while position < bytes.count {
            let byte = bytes[position]
            guard byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 else { break }
            bytesOr |= byte
            position += 1
        }
        return bytesOr
    }

    /// The high bit of each of the eight bytes of `chunk` (the first in the lowest bits) that is a
    /// quote, a backslash or a control character (below 0x20), by the bit tricks that find a
    /// zero byte in a word. Only the lowest bit set is sure: a borrow may flag bytes after it.
    @inline(__always)
    private static func attentionBits(_ chunk: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        let quotes = zeroBytes(chunk ^ (ones &* 0x22)), backslashes = zeroBytes(chunk ^ (ones &* 0x5C))
        // A byte below 0x20 borrows when 0x20 is taken from it; bytes of 0x80 and above are not.
        let controls = (chunk &- ones &* 0x20) & ~chunk & highs
        return quotes | backslashes | controls
    }

    /// Appends a string's bytes to the tape and returns where they are in its strings (see
    /// ``JSONTapeBuilder/appendString(_:)``); with `validating`, invalid UTF-8 in them is
    /// replaced by U+FFFD first, as `String(decoding:as:)` replaces it.
    private mutating func append(
        _ string: UnsafeBufferPointer<UInt8>, validating: Bool, from start: Int
    ) throws(JSONParseError) -> Range<Int> {
        var appended: Range<Int>?
        if validating, String(validating: string, as: UTF8.self) == nil {
            var repaired = String(decoding: string, as: UTF8.self)
            appended = repaired.withUTF8 { tape.appendString($0) }
        } else {
            appended = tape.appendString(string)
        }
        guard let appended else { throw error("the document is too large to read", at: start - 1) }
        return appended
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = position
        position += 1  // backslash
        guard let byte = peek() else { throw error("unexpected end of file in escape sequence") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHexQuad()
            if (0xD800..<0xDC00).contains(scalar),
               peek() == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") {
                let resume = position
                position += 2
                let low = try parseHexQuad()
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    position = resume
                }
            }
            // Lone surrogates become U+FFFD rather than failing the build.
            let unicode = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            let shown = byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : describe(byte)
            throw error("invalid escape sequence '\\\(shown)'", at: escapeStart)
        }
    }

    private mutating func parseHexQuad() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("unexpected end of file in \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit \(describe(byte)) in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = position
        var isInteger = true
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit in number") }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), isDigit(next) { throw error("leading zeros are not allowed in numbers") }
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let next = peek(), isDigit(next) else { throw error("expected a digit after the decimal point") }
            skipDigits()
        }
        if let next = peek(), next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), isDigit(digit) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        let digits = UnsafeBufferPointer(rebasing: bytes[start..<position])
        if isInteger && digits.count <= 15 {
            var value: Int64 = 0
            var negative = false
            for byte in digits {
                if byte == UInt8(ascii: "-") { negative = true } else { value = value * 10 + Int64(byte - UInt8(ascii: "0")) }
            }
            return Double(negative ? -value : value)
        }
        guard let value = Double(String(decoding: digits, as: UTF8.self)) else {
            throw error("number out of range", at: start)
        }
        return value
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Helpers

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count,
              memcmp(bytes.baseAddress! + position, literal.utf8Start, count) == 0 else {
            throw error("unexpected character \(describe(bytes[start])), expected a value", at: start)
        }
        position += count
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "0x" + String(byte, radix: 16, uppercase: true)
    }

    /// An error at `offset` (default: the current position), with its line and column.
    private func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let (line, column) = lineAndColumn(at: offset ?? position)
        return JSONParseError(line: line, column: column, message: message)
    }

    /// The 1-based line and column of `offset`, computed from the bytes before it (nothing is
    /// counted while parsing); the column counts characters, not bytes.
    private func lineAndColumn(at offset: Int) -> (line: Int, column: Int) {
        let offset = min(offset, bytes.count)
        var line = 1
        var column = 1
        let hasByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        for byte in bytes[(hasByteOrderMark ? min(3, offset) : 0)..<offset] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}

// MARK: Locating a value

/// One step of a path into a JSON document: an object's key or an array's index.
public enum JSONPathComponent: Sendable, Hashable {
    case key(String)
    case index(Int)

    /// The components of a field path as the crawl writes it (`body[2].columns[0].link`).
    public static func components(ofFieldPath path: String) -> [JSONPathComponent] {
        var components: [JSONPathComponent] = []
        for segment in path.split(separator: ".", omittingEmptySubsequences: true) {
            var rest = segment[...]
            if let bracket = rest.firstIndex(of: "[") {
                if bracket > rest.startIndex { components.append(.key(String(rest[..<bracket]))) }
                rest = rest[bracket...]
                while rest.first == "[", let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]) {
                    components.append(.index(index))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                components.append(.key(String(rest)))
            }
        }
        return components
    }
}

extension JSONValue {
    /// Where the value at `path` starts in the JSON document `bytes`: its 1-based line, and how
    /// many components of `path` were found. A path that leads nowhere stops at the deepest
    /// value it reached (the document itself when none matched). Nil for malformed JSON.
    ///
    /// For messages only: the document is parsed again up to the value, so parsing a whole
    /// content folder never spends time on positions no one asks for.
    public static func position(of path: [JSONPathComponent], in bytes: [UInt8]) -> (line: Int, matched: Int)? {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer)
            return try? parser.locate(path)
        }
    }
}

extension JSONParser {
    /// Walks from the document's root down `path`, parsing (and dropping) the values beside it.
    mutating func locate(_ path: [JSONPathComponent]) throws(JSONParseError) -> (line: Int, matched: Int) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        var start = position
        var matched = 0
        walk: for component in path {
            switch (component, peek()) {
            case (.key(let wanted), UInt8(ascii: "{")?):
                position += 1
                while true {
                    skipWhitespace()
                    guard peek() == UInt8(ascii: "\"") else { break walk }
                    let key = String(decoding: tape.strings[try parseString()], as: UTF8.self)
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after object key \"\(key)\"") }
                    position += 1
                    skipWhitespace()
                    if key == wanted { break }
                    try parseValue()
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ",") else { break walk }
                    position += 1
                }
            case (.index(let wanted), UInt8(ascii: "[")?):
                position += 1
                for _ in 0..<wanted {
                    skipWhitespace()
                    try parseValue()
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ",") else { break walk }
                    position += 1
                }
                skipWhitespace()
                guard let next = peek(), next != UInt8(ascii: "]") else { break walk }
            default:
                break walk
            }
            start = position
            matched += 1
        }
        return (lineAndColumn(at: start).line, matched)
    }
}
