/// The candidate URLs of a `srcset` attribute, split as the HTML standard's srcset parser does:
/// candidates are separated by commas that end a candidate's descriptors (`a.jpg 1x,b.jpg 2x`
/// needs no space after the comma), while a comma inside a URL (`img,1.jpg`) belongs to it.
enum Srcset {
    static func candidateURLs(_ value: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
        var urls: [[UInt8]] = []
        var position = 0
        while true {
            while position < value.count, isWhitespace(value[position]) || value[position] == UInt8(ascii: ",") {
                position += 1
            }
            guard position < value.count else { return urls }
            let start = position
            while position < value.count, !isWhitespace(value[position]) { position += 1 }
            var end = position
            if value[end - 1] == UInt8(ascii: ",") {
                while end > start, value[end - 1] == UInt8(ascii: ",") { end -= 1 }
            } else {
                skipDescriptors(value, &position)
            }
            if end > start { urls.append(Array(value[start..<end])) }
        }
    }

    /// Moves past a candidate's descriptors (`2x`, `100w`, `(…)`) and the comma ending them.
    private static func skipDescriptors(_ value: UnsafeBufferPointer<UInt8>, _ position: inout Int) {
        var inParentheses = false
        while position < value.count {
            let byte = value[position]
            position += 1
            if inParentheses {
                if byte == UInt8(ascii: ")") { inParentheses = false }
            } else if byte == UInt8(ascii: "(") {
                inParentheses = true
            } else if byte == UInt8(ascii: ",") {
                return
            }
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
