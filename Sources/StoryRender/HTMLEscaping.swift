/// Escaping of content strings for HTML: text between tags and values inside double-quoted
/// attributes. Works on UTF-8 bytes and returns the input unchanged (no copy) when nothing needs
/// escaping, which is the common case.
///
/// The entities follow `@storyblok/richtext`: text escapes `&<>"'` (the apostrophe as `&#039;`),
/// attributes escape the same characters (the apostrophe as `&#39;`).
public enum HTMLEscaping {
    /// `text` made safe to place between tags.
    public static func text(_ text: String) -> String {
        var output = ""
        appendText(text, to: &output)
        return output
    }

    /// `value` made safe to place inside a double-quoted attribute.
    public static func attribute(_ value: String) -> String {
        var output = ""
        appendAttribute(value, to: &output)
        return output
    }

    /// Appends `text`, escaped for placement between tags, to `output`.
    public static func appendText(_ text: String, to output: inout String) {
        append(text, apostrophe: "&#039;", to: &output)
    }

    /// Appends `value`, escaped for a double-quoted attribute, to `output`.
    public static func appendAttribute(_ value: String, to output: inout String) {
        append(value, apostrophe: "&#39;", to: &output)
    }

    private static func append(_ string: String, apostrophe: String, to output: inout String) {
        var source = string  // withUTF8 may make the storage contiguous, so it needs a var
        source.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if byte > UInt8(ascii: ">") { continue }  // letters and most text: nothing to escape
                let replacement: String
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = apostrophe
                default: continue
                }
                if runStart < index {
                    output += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                }
                output += replacement
                runStart = index + 1
            }
            if runStart == 0 {
                output += string
            } else if runStart < bytes.count {
                output += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]), as: UTF8.self)
            }
        }
    }
}
