/// How the Mustache line rules apply to one token.
struct TokenLayout {
    /// Whitespace or a line break on a standalone line: not output.
    var isRemoved = false
    /// A tag whose line holds nothing else that renders, so the line itself is not output.
    var isStandalone = false
    /// The first token of a line that is output: a template line starts here, which is where a
    /// standalone partial's indentation goes.
    var beginsLine = false
    /// For a standalone partial or parent tag: the whitespace before it on its line.
    var indentation: Range<Int>?
}

/// Applies the standalone-line rules to a token list.
///
/// A line is standalone, and left out of the output with its whitespace and line break, when it
/// holds only whitespace and either
/// - exactly one section, inverted section, closing, comment, partial, parent, block or
///   delimiter-change tag, or
/// - several parent and block tags (opening or closing), none of them a block opened and closed on
///   that same line: such a block is inline content where it stands (`  {{$title}}{{/title}}`).
enum LineLayout {
    /// Splits text tokens after each line break, so every line break ends a text token.
    static func splitAtLineBreaks(_ tokens: [Token], source: [UInt8]) -> [Token] {
        var result: [Token] = []
        result.reserveCapacity(tokens.count)
        for token in tokens {
            guard token.kind == .text else {
                result.append(token)
                continue
            }
            var start = token.range.lowerBound
            for offset in token.range where source[offset] == UInt8(ascii: "\n") {
                result.append(textToken(start..<offset + 1, like: token))
                start = offset + 1
            }
            if start < token.range.upperBound {
                result.append(textToken(start..<token.range.upperBound, like: token))
            }
        }
        return result
    }

    private static func textToken(_ range: Range<Int>, like token: Token) -> Token {
        Token(kind: .text, range: range, content: range, delimiters: token.delimiters)
    }

    /// The layout of each token; `tokens` must have been split at line breaks.
    static func layout(of tokens: [Token], source: [UInt8]) -> [TokenLayout] {
        let partners = matchingTags(tokens, source: source)
        var layouts = [TokenLayout](repeating: TokenLayout(), count: tokens.count)
        var lineStart = 0
        for index in tokens.indices {
            let token = tokens[index]
            let endsLine = index == tokens.count - 1
                || (token.kind == .text && source[token.range.upperBound - 1] == UInt8(ascii: "\n"))
            guard endsLine else { continue }
            layoutLine(lineStart...index, tokens: tokens, partners: partners, source: source, into: &layouts)
            lineStart = index + 1
        }
        return layouts
    }

    private static func layoutLine(
        _ line: ClosedRange<Int>, tokens: [Token], partners: [Int?], source: [UInt8],
        into layouts: inout [TokenLayout]
    ) {
        var tags: [Int] = []
        for index in line {
            let token = tokens[index]
            if token.kind == .text {
                if !isBlank(token.range, source: source) {
                    layouts[line.lowerBound].beginsLine = true
                    return
                }
            } else {
                tags.append(index)
            }
        }
        guard isStandalone(tags, tokens: tokens, partners: partners, line: line) else {
            layouts[line.lowerBound].beginsLine = true
            return
        }
        let firstTagStart = tokens[tags[0]].range.lowerBound
        let leadingWhitespace = tokens[line.lowerBound].kind == .text
            ? tokens[line.lowerBound].range : firstTagStart..<firstTagStart
        for index in line {
            switch tokens[index].kind {
            case .text:
                layouts[index].isRemoved = true
            case .tag(let kind):
                layouts[index].isStandalone = true
                if kind == .partial || kind == .parent {
                    layouts[index].indentation = leadingWhitespace
                }
            }
        }
    }

    private static func isStandalone(_ tags: [Int], tokens: [Token], partners: [Int?], line: ClosedRange<Int>) -> Bool {
        guard let first = tags.first, case .tag(let firstKind) = tokens[first].kind else { return false }
        if tags.count == 1 {
            if case .variable = firstKind { return false }
            return true
        }
        for index in tags {
            guard case .tag(let kind) = tokens[index].kind else { return false }
            switch kind {
            case .parent:
                continue
            case .block:
                if let partner = partners[index], line.contains(partner) { return false }
            case .close:
                guard let opener = partners[index], case .tag(let openerKind) = tokens[opener].kind,
                    openerKind == .parent || openerKind == .block
                else { return false }
            default:
                return false
            }
        }
        return true
    }

    /// Whether the text is spaces and tabs, with at most a final line break (`\n` or `\r\n`).
    private static func isBlank(_ range: Range<Int>, source: [UInt8]) -> Bool {
        var end = range.upperBound
        if end > range.lowerBound, source[end - 1] == UInt8(ascii: "\n") {
            end -= 1
            if end > range.lowerBound, source[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        }
        return source[range.lowerBound..<end].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// For each opening and closing tag, the index of its counterpart (nil where unmatched).
    private static func matchingTags(_ tokens: [Token], source: [UInt8]) -> [Int?] {
        var partners = [Int?](repeating: nil, count: tokens.count)
        var open: [Int] = []
        for index in tokens.indices {
            guard case .tag(let kind) = tokens[index].kind else { continue }
            switch kind {
            case .section, .invertedSection, .parent, .block:
                open.append(index)
            case .close:
                let name = source[tokens[index].content]
                guard let match = open.lastIndex(where: { source[tokens[$0].content] == name }) else { continue }
                partners[index] = open[match]
                partners[open[match]] = index
                open.removeSubrange(match...)
            default:
                continue
            }
        }
        return partners
    }
}
