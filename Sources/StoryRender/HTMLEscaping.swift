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
            guard var index = firstSpecial(in: bytes, from: 0) else {
                output += string  // the common case: nothing to escape
                return
            }
            var runStart = 0
            while true {
                if runStart < index {
                    output += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                }
                switch bytes[index] {
                case UInt8(ascii: "&"): output += "&amp;"
                case UInt8(ascii: "<"): output += "&lt;"
                case UInt8(ascii: ">"): output += "&gt;"
                case UInt8(ascii: "\""): output += "&quot;"
                default: output += apostrophe
                }
                runStart = index + 1
                guard let next = firstSpecial(in: bytes, from: runStart) else { break }
                index = next
            }
            if runStart < bytes.count {
                output += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]), as: UTF8.self)
            }
        }
    }

    /// The bytes that need escaping (`"`, `&`, `'`, `<`, `>`), as bits of a 64-bit mask.
    private static let specialMask: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

    /// The index of the first byte that needs escaping at or after `start`, or nil.
    private static func firstSpecial(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 64, specialMask >> byte & 1 != 0 { return index }
            index += 1
        }
        return nil
    }
}
