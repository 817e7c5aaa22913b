import Foundation

/// A stable 64-bit FNV-1a hash of file contents, as 16 hex digits.
///
/// Stable across runs and machines (unlike `Hasher`), so the manifest can tell whether a file
/// would change without reading it back.
public enum ContentHash {
    public static func of(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
