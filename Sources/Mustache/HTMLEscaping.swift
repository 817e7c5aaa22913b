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
        HTMLSpecialBytes.escape(bytes, apostrophe: "&#39;") { append($0) }
    }
}
