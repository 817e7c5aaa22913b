import Mustache

/// Escaping of content strings for HTML: text between tags and values inside double-quoted
/// attributes, over UTF-8 bytes.
///
/// The entities follow `@storyblok/richtext`: text escapes `&<>"'` (the apostrophe as `&#039;`),
/// attributes escape the same characters (the apostrophe as `&#39;`).
public enum HTMLEscaping {
    /// `text` made safe to place between tags.
    public static func text(_ text: String) -> String {
        escaped(text, apostrophe: textApostrophe)
    }

    /// `value` made safe to place inside a double-quoted attribute.
    public static func attribute(_ value: String) -> String {
        escaped(value, apostrophe: attributeApostrophe)
    }

    static let textApostrophe: StaticString = "&#039;"
    static let attributeApostrophe: StaticString = "&#39;"

    /// `string` escaped; the string itself (no copy) when nothing needs escaping.
    private static func escaped(_ string: String, apostrophe: StaticString) -> String {
        var source = string  // withUTF8 may make the storage contiguous, so it needs a var
        let needsEscaping = source.withUTF8 { HTMLSpecialBytes.firstIndex(in: $0, from: 0) != nil }
        guard needsEscaping else { return string }
        var buffer = HTMLBuffer(capacity: string.utf8.count + 16)
        buffer.appendEscaped(string, apostrophe: apostrophe)
        return buffer.string
    }

    /// Appends `bytes` to `output`, each `"`, `&`, `'`, `<`, `>` replaced by its entity.
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, apostrophe: StaticString, to output: inout [UInt8]) {
        HTMLSpecialBytes.escape(bytes, apostrophe: apostrophe) { output.append(contentsOf: $0) }
    }
}
