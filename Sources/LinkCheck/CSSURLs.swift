/// The `url(…)` references of CSS (a `style` attribute or a `<style>` element), read the way a
/// CSS tokenizer reads them: `url(a.png)`, `url( "a b.png" )` and `URL('a.png')` count;
/// comments, other strings (`content: "url(x)"`) and other functions ending in `url(`
/// (`my-url(x)`) do not. Each URL comes with the byte offset where it starts, so a caller can
/// tell its line.
enum CSSURLs {
    struct Reference: Equatable {
        /// The URL as written, without quotes; escapes inside a quoted URL resolved.
        var value: [UInt8]
        var offset: Int
    }

    static func references(_ css: UnsafeBufferPointer<UInt8>) -> [Reference] {
        var references: [Reference] = []
        var position = 0
        while position < css.count {
            let byte = css[position]
            if byte == UInt8(ascii: "/"), position + 1 < css.count, css[position + 1] == UInt8(ascii: "*") {
                position = endOfComment(css, from: position + 2)
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                position = readString(css, from: position).end
            } else if byte == UInt8(ascii: "\\") {
                position += 2
            } else if isURLFunction(css, at: position) {
                position += 4
                if let reference = readURL(css, from: &position) { references.append(reference) }
            } else {
                position += 1
            }
        }
        return references
    }

    /// Whether `url(` (in any case) starts at `position` as a function of its own.
    private static func isURLFunction(_ css: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        guard position + 4 <= css.count, css[position] | 0x20 == UInt8(ascii: "u"), css[position + 1] | 0x20 == UInt8(ascii: "r"),
              css[position + 2] | 0x20 == UInt8(ascii: "l"), css[position + 3] == UInt8(ascii: "(") else { return false }
        return position == 0 || !isNameByte(css[position - 1])
    }

    /// The URL after `url(`, from `position` to past its `)`.
    private static func readURL(_ css: UnsafeBufferPointer<UInt8>, from position: inout Int) -> Reference? {
        skipWhitespace(css, &position)
        guard position < css.count else { return nil }
        let start = position
        var value: [UInt8]
        if css[position] == UInt8(ascii: "\"") || css[position] == UInt8(ascii: "'") {
            let string = readString(css, from: position)
            value = string.value
            position = string.end
            skipWhitespace(css, &position)
            guard position < css.count, css[position] == UInt8(ascii: ")") else { return nil }
            position += 1
            return Reference(value: value, offset: start + 1)
        }
        value = []
        while position < css.count, css[position] != UInt8(ascii: ")"), !Srcset.isWhitespace(css[position]) {
            value.append(css[position])
            position += 1
        }
        skipWhitespace(css, &position)
        guard position < css.count, css[position] == UInt8(ascii: ")") else { return nil }
        position += 1
        return Reference(value: value, offset: start)
    }

    /// The string whose quote is at `position`, and the position after its closing quote (or
    /// the end of the line or text, where an unclosed string ends).
    private static func readString(_ css: UnsafeBufferPointer<UInt8>, from position: Int) -> (value: [UInt8], end: Int) {
        let quote = css[position]
        var value: [UInt8] = []
        var index = position + 1
        while index < css.count {
            let byte = css[index]
            if byte == quote { return (value, index + 1) }
            if byte == 0x0A { return (value, index) }
            if byte == UInt8(ascii: "\\"), index + 1 < css.count {
                if css[index + 1] != 0x0A { value.append(css[index + 1]) }
                index += 2
                continue
            }
            value.append(byte)
            index += 1
        }
        return (value, index)
    }

    private static func endOfComment(_ css: UnsafeBufferPointer<UInt8>, from position: Int) -> Int {
        var index = position
        while index + 1 < css.count {
            if css[index] == UInt8(ascii: "*"), css[index + 1] == UInt8(ascii: "/") { return index + 2 }
            index += 1
        }
        return css.count
    }

    private static func skipWhitespace(_ css: UnsafeBufferPointer<UInt8>, _ position: inout Int) {
        while position < css.count, Srcset.isWhitespace(css[position]) { position += 1 }
    }

    /// Letters, digits, `-`, `_` and non-ASCII: the bytes of a CSS name.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), 0x80...: return true
        default: return false
        }
    }
}
