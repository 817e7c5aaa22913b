/// Text compared byte for byte. Swift's `String` treats canonically equivalent text as equal
/// (`café` in NFC equals `café` in NFD), but a static host matches file names, and a browser
/// matches ids, by their exact bytes; paths and anchors are therefore kept as bytes.
struct ByteString: Hashable, Sendable, Comparable, CustomStringConvertible {
    var bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func < (lhs: ByteString, rhs: ByteString) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    /// The bytes as text (invalid UTF-8 shown as U+FFFD), for messages.
    var description: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
