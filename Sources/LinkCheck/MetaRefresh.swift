/// The URL in a `<meta http-equiv="refresh" content="5; url=next.html">`, read as the HTML
/// standard's declarative refresh does: a delay, a `;` or `,` (or whitespace), an optional
/// `url=`, and the URL, quoted or not.
enum MetaRefresh {
    static func url(inContent content: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var position = 0
        skipWhitespace(content, &position)
        let delayStart = position
        while position < content.count, isDigit(content[position]) || content[position] == UInt8(ascii: ".") {
            position += 1
        }
        guard position > delayStart, position < content.count else { return nil }
        let separator = content[position]
        guard separator == UInt8(ascii: ";") || separator == UInt8(ascii: ",") || Srcset.isWhitespace(separator) else {
            return nil
        }
        skipWhitespace(content, &position)
        if position < content.count, content[position] == UInt8(ascii: ";") || content[position] == UInt8(ascii: ",") {
            position += 1
        }
        skipWhitespace(content, &position)
        skipURLLabel(content, &position)
        guard position < content.count else { return nil }
        var end = content.count
        let quote = content[position]
        if quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") {
            position += 1
            end = content[position...].firstIndex(of: quote) ?? content.count
        }
        let url = Array(content[position..<end])
        return url.isEmpty ? nil : url
    }

    /// Skips `url =` (any case, whitespace around `=`) when it is there.
    private static func skipURLLabel(_ content: UnsafeBufferPointer<UInt8>, _ position: inout Int) {
        var probe = position
        for letter in "url".utf8 {
            guard probe < content.count, content[probe] | 0x20 == letter else { return }
            probe += 1
        }
        skipWhitespace(content, &probe)
        guard probe < content.count, content[probe] == UInt8(ascii: "=") else { return }
        probe += 1
        skipWhitespace(content, &probe)
        position = probe
    }

    private static func skipWhitespace(_ content: UnsafeBufferPointer<UInt8>, _ position: inout Int) {
        while position < content.count, Srcset.isWhitespace(content[position]) { position += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
