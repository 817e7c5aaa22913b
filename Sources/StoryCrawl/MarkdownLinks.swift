/// Finds the destinations of inline Markdown links (`[text](target)`, `[text](<target>)`,
/// `[text](target "title")`) in a string by scanning its bytes for `](`: no regular expression,
/// no work at all for strings without one.
enum MarkdownLinks {
    static func destinations(in text: String) -> [Substring] {
        let utf8 = text.utf8
        var destinations: [Substring] = []
        var index = utf8.startIndex
        var previous: UInt8 = 0
        while index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            if previous == UInt8(ascii: "]") && byte == UInt8(ascii: "(") {
                if let destination = destination(in: text, from: index) { destinations.append(destination) }
                previous = 0
            } else {
                previous = byte
            }
        }
        return destinations
    }

    /// Reads the destination starting at `start` (just after `(`). One holding `](` is not a
    /// destination but the start of another link, which scanning goes on to find.
    private static func destination(in text: String, from start: String.Index) -> Substring? {
        let utf8 = text.utf8
        var index = start
        while index != utf8.endIndex, utf8[index] == UInt8(ascii: " ") { utf8.formIndex(after: &index) }
        guard index != utf8.endIndex else { return nil }
        if utf8[index] == UInt8(ascii: "<") {
            let open = utf8.index(after: index)
            var close = open
            while close != utf8.endIndex, utf8[close] != UInt8(ascii: ">"), utf8[close] != UInt8(ascii: "\n") {
                utf8.formIndex(after: &close)
            }
            guard close != utf8.endIndex, utf8[close] == UInt8(ascii: ">") else { return nil }
            return text[open..<close]
        }
        let open = index
        var depth = 0
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte <= UInt8(ascii: " ") { break }
            if byte == UInt8(ascii: "(") { depth += 1 }
            if byte == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
            }
            utf8.formIndex(after: &index)
        }
        guard index != open else { return nil }
        let destination = text[open..<index]
        return mayHoldLink(destination) ? nil : destination
    }

    /// Whether `text` contains `](`, the only way an inline Markdown link can start.
    static func mayHoldLink(_ text: some StringProtocol) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "("), previous == UInt8(ascii: "]") { return true }
            previous = byte
        }
        return false
    }
}
