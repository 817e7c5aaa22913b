/// `{{name}}` escaping: `&`, `<`, `>`, `"` and `'` become `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`.
extension ByteBuffer {
    /// Appends `text` escaped. Runs without special characters are copied whole.
    mutating func appendEscapingHTML(_ text: consuming String) {
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { appendEscapingHTML($0) }
        if appended == nil {
            Array(text.utf8).withUnsafeBufferPointer { appendEscapingHTML($0) }
        }
    }

    private mutating func appendEscapingHTML(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        var runStart = 0
        var index = 0
        while index < bytes.count {
            // Skip eight bytes at a time while none of them is special.
            if index + 8 <= bytes.count,
                !Self.mayHoldSpecialCharacter(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
                continue
            }
            let entity: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default:
                index += 1
                continue
            }
            append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            append(UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
            index += 1
            runStart = index
        }
        append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// Whether any byte of `word` is `"`, `&`, `'`, `<` or `>` (exact: no byte is missed).
    private static func mayHoldSpecialCharacter(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        return hasZeroByte(word ^ (0x22 &* ones))  // "
            || hasZeroByte((word ^ (0x26 &* ones)) & ~ones)  // & and ', which differ in the lowest bit
            || hasZeroByte((word ^ (0x3C &* ones)) & ~(0x02 &* ones))  // < and >, which differ in bit 1
    }
}
