/// HTML being written, as UTF-8 bytes. Markup is built from many small pieces (a tag name, an
/// attribute, a quote); appending those to an array of bytes is a copy, where appending to a
/// `String` goes through its slower general path every time.
struct HTMLBuffer {
    private var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends markup or text that is already safe.
    static func += (buffer: inout HTMLBuffer, html: String) {
        var html = html  // withUTF8 may make the storage contiguous, so it needs a var
        html.withUTF8 { buffer.bytes.append(contentsOf: $0) }
    }

    /// Appends the closing tag `</tag>`.
    mutating func appendClosingTag(_ tag: String) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        self += tag
        bytes.append(UInt8(ascii: ">"))
    }

    /// Appends `text`, escaped for placement between tags.
    mutating func appendText(_ text: String) {
        appendEscaped(text, apostrophe: HTMLEscaping.textApostrophe)
    }

    /// Appends ` name="value"` with the value escaped for a double-quoted attribute.
    mutating func appendAttribute(_ name: String, _ value: String) {
        bytes.append(UInt8(ascii: " "))
        self += name
        bytes.append(UInt8(ascii: "="))
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(value, apostrophe: HTMLEscaping.attributeApostrophe)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func appendEscaped(_ string: String, apostrophe: StaticString) {
        var string = string
        string.withUTF8 { HTMLEscaping.append($0, apostrophe: apostrophe, to: &bytes) }
    }

    /// The HTML written so far.
    var string: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
