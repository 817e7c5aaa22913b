/// A stable 64-bit FNV-1a hash built up from strings and numbers, for build cache keys.
///
/// Each string is hashed with its length first, so `("ab", "c")` and `("a", "bc")` differ.
public struct Fingerprint: Sendable {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine(_ text: String) {
        combine(Int64(text.utf8.count))
        for byte in text.utf8 { add(byte) }
    }

    public mutating func combine(bytes: some Collection<UInt8>) {
        combine(Int64(bytes.count))
        for byte in bytes { add(byte) }
    }

    public mutating func combine(_ number: Int64) {
        var value = UInt64(bitPattern: number)
        for _ in 0..<8 {
            add(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }

    /// The hash as 16 hex digits.
    public var hex: String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private mutating func add(_ byte: UInt8) {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01b3
    }
}
