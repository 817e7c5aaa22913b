#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A manifest file laid out byte for byte as ``Manifest/encoded()`` writes it, read without a
/// JSON parser, with where each entry's bytes are: a rebuild that changes a few files then
/// writes the manifest again by copying the entries it kept (at 10,000 pages, reading it as JSON
/// and encoding it anew were about 8% of a one-page rebuild's time).
///
/// Any other layout (an escape in a string, other spacing, a number where digits in quotes
/// belong) is not read here: such a file is read as JSON, and written anew.
struct ManifestLayout: Sendable {
    /// One entry as read: its path, what it says, and where its bytes are in the file, from
    /// the opening quote of its path to the closing brace of its object.
    struct Entry: Sendable {
        var path: String
        var entry: Manifest.Entry
        var bytes: Range<Int>
    }

    /// The file's bytes.
    let bytes: [UInt8]
    /// The entries, in the file's order.
    let entries: [Entry]
    let generator: String

    /// The fixed text between the values, which ``Manifest/encoded()`` writes and the scanner
    /// expects: one description of the layout for both, so that they cannot drift apart.
    enum Text {
        static let opening: StaticString = "{\n  \"files\": {"
        static let noFiles: StaticString = "}"
        static let firstEntry: StaticString = "\n    "
        static let nextEntry: StaticString = ",\n    "
        static let hash: StaticString = ": {\n      \"hash\": "
        static let modified: StaticString = ",\n      \"modified\": \""
        static let size: StaticString = "\",\n      \"size\": "
        static let entryEnd: StaticString = "\n    }"
        static let filesEnd: StaticString = "\n  }"
        static let generator: StaticString = ",\n  \"generator\": "
        static let closing: StaticString = "\n}"
    }

    /// The layout of `bytes`; nil when they are laid out in any other way.
    init?(_ bytes: [UInt8]) {
        var scanner = Scanner(bytes: bytes)
        var entries: [Entry] = []
        guard scanner.skip(Text.opening) else { return nil }
        if !scanner.skip(Text.noFiles) {
            entries.reserveCapacity(bytes.count / 130)
            repeat {
                guard scanner.skip(entries.isEmpty ? Text.firstEntry : Text.nextEntry) else { return nil }
                let start = scanner.offset
                guard let path = scanner.plainString(), scanner.skip(Text.hash), let hash = scanner.plainString(),
                      scanner.skip(Text.modified), let modified = scanner.digits(), scanner.skip(Text.size),
                      let size = scanner.digits().flatMap(Self.size), scanner.skip(Text.entryEnd) else { return nil }
                entries.append(Entry(path: path, entry: Manifest.Entry(size: size, hash: hash, modified: modified), bytes: start..<scanner.offset))
            } while !scanner.skip(Text.filesEnd)
        }
        guard scanner.skip(Text.generator), let generator = scanner.plainString(), scanner.skip(Text.closing), scanner.isAtEnd else {
            return nil
        }
        self.bytes = bytes
        self.entries = entries
        self.generator = generator
    }

    /// A size as JSON reads it: a number, which is exact up to 2^53 (a file is smaller); past
    /// that, nil, and the file is read as JSON.
    private static func size(_ digits: Int64) -> Int? {
        digits <= 1 << 53 ? Int(digits) : nil
    }

    /// Reads `bytes` from the start, a token at a time.
    private struct Scanner {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        /// Moves past `text` when the bytes go on with it.
        mutating func skip(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - offset >= count,
                  bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + offset, text.utf8Start, count) == 0 }) else { return false }
            offset += count
            return true
        }

        /// A string in quotes that holds no escape and no control character, as valid UTF-8.
        /// Paths and hashes are mostly ASCII, which needs no validating: the generic validation
        /// took a thousand instructions a string.
        mutating func plainString() -> String? {
            let read = bytes.withUnsafeBufferPointer { bytes -> (string: String, end: Int)? in
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
                let start = offset + 1
                var end = start
                var highBits: UInt8 = 0
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    guard bytes[end] >= 0x20, bytes[end] != UInt8(ascii: "\\") else { return nil }
                    highBits |= bytes[end] & 0x80
                    end += 1
                }
                guard end < bytes.count else { return nil }
                let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
                guard let string = highBits == 0 ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self) else {
                    return nil
                }
                return (string, end)
            }
            guard let read else { return nil }
            offset = read.end + 1
            return read.string
        }

        /// A whole number that fits an `Int64`, without a leading zero but for 0 itself.
        mutating func digits() -> Int64? {
            var value: Int64 = 0
            var end = offset
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
                let (tens, overflowed) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowedAgain) = tens.addingReportingOverflow(Int64(bytes[end] - UInt8(ascii: "0")))
                guard !overflowed, !overflowedAgain else { return nil }
                value = sum
                end += 1
            }
            guard end > offset, end - offset == 1 || bytes[offset] != UInt8(ascii: "0") else { return nil }
            offset = end
            return value
        }
    }
}
