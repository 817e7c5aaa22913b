/// `{{name}}` escaping: `&`, `<`, `>`, `"` and `'` become `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`.
enum HTMLEscaping {
    /// Appends `text` to `output`, escaped. Text without special characters is appended in one piece.
    static func append(_ text: String, to output: inout String) {
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            appendEscaped(text, bytes: bytes, to: &output)
        }
        if appended == nil {
            var contiguous = text
            contiguous.makeContiguousUTF8()
            append(contiguous, to: &output)
        }
    }

    private static func appendEscaped(
        _ text: String, bytes: UnsafeBufferPointer<UInt8>, to output: inout String
    ) {
        var runStart = 0
        for offset in 0..<bytes.count {
            let entity: String
            switch bytes[offset] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default: continue
            }
            if runStart < offset {
                output += slice(of: text, from: runStart, to: offset)
            }
            output += entity
            runStart = offset + 1
        }
        if runStart == 0 {
            output += text
        } else if runStart < bytes.count {
            output += slice(of: text, from: runStart, to: bytes.count)
        }
    }

    /// The text between two UTF-8 offsets that sit on ASCII characters (so on scalar boundaries).
    private static func slice(of text: String, from start: Int, to end: Int) -> Substring {
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: start)
        let upper = utf8.index(lower, offsetBy: end - start)
        return text[lower..<upper]
    }
}
