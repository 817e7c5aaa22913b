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
        var runStart = 0
        while let index = HTMLSpecialBytes.firstIndex(in: bytes, from: runStart) {
            append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            let entity: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            default: entity = "&#39;"
            }
            append(UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
            runStart = index + 1
        }
        append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
}
