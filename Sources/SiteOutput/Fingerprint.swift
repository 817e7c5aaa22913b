import Foundation

/// A stable 64-bit FNV-1a hash (unlike `Hasher`, the same across runs and machines), built up
/// from strings and numbers for build cache keys, or over a file's bytes.
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

    /// The hash of a file's contents: its bytes alone, without a length (what the manifest and
    /// the build cache record, so a rebuild can tell whether a file would change).
    public static func contents(_ data: Data) -> String {
        var fingerprint = Fingerprint()
        data.withUnsafeBytes { bytes in
            for byte in bytes { fingerprint.add(byte) }
        }
        return fingerprint.hex
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
