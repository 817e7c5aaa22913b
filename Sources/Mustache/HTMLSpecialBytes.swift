/// Finds the bytes HTML escaping replaces (`"`, `&`, `'`, `<`, `>`) in UTF-8 text, eight bytes
/// at a time: most text has none, and a page escapes kilobytes of it.
public enum HTMLSpecialBytes {
    /// The index of the first special byte at or after `start`, or nil.
    @inlinable
    public static func firstIndex(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= bytes.count {
            if mayHoldSpecialByte(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { break }
            index += 8
        }
        while index < bytes.count {
            if isSpecial(bytes[index]) { return index }
            index += 1
        }
        return nil
    }

    /// Escapes `bytes` for HTML: hands `append` each run that needs no escaping and, in its
    /// place, each entity (`&amp;`, `&lt;`, `&gt;`, `&quot;`, and `apostrophe` for `'`), in order.
    @inlinable
    public static func escape(
        _ bytes: UnsafeBufferPointer<UInt8>, apostrophe: StaticString, into append: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var runStart = 0
        while let index = firstIndex(in: bytes, from: runStart) {
            append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            let entity: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            default: entity = apostrophe
            }
            append(UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
            runStart = index + 1
        }
        append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// Whether `byte` is `"`, `&`, `'`, `<` or `>`.
    @inlinable
    public static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 64 && specialMask >> byte & 1 != 0
    }

    @usableFromInline
    static let specialMask: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

    /// Whether any byte of `word` may be special (exact: no special byte is missed).
    @inlinable
    static func mayHoldSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        return hasZeroByte(word ^ (0x22 &* ones))  // "
            || hasZeroByte((word ^ (0x26 &* ones)) & ~ones)  // & and ', which differ in the lowest bit
            || hasZeroByte((word ^ (0x3C &* ones)) & ~(0x02 &* ones))  // < and >, which differ in bit 1
    }
}
