/// The pair of strings that open and close a tag; `{{` and `}}` until a `{{=<% %>=}}` tag.
struct Delimiters: Hashable, Sendable {
    var opening: [UInt8]
    var closing: [UInt8]

    static let standard = Delimiters(opening: Array("{{".utf8), closing: Array("}}".utf8))
}

/// What a tag does, from the sigil after its opening delimiter.
enum TagKind: Equatable {
    /// `{{name}}` (escaped), `{{{name}}}` or `{{&name}}` (unescaped).
    case variable(escaped: Bool)
    /// `{{#name}}`
    case section
    /// `{{^name}}`
    case invertedSection
    /// `{{/name}}`
    case close
    /// `{{! text }}`
    case comment
    /// `{{>name}}`
    case partial
    /// `{{<name}}`
    case parent
    /// `{{$name}}`
    case block
    /// `{{=<% %>=}}`
    case setDelimiters

    /// How the tag is named in messages.
    var noun: String {
        switch self {
        case .variable: "variable"
        case .section: "section"
        case .invertedSection: "inverted section"
        case .close: "closing tag"
        case .comment: "comment"
        case .partial: "partial"
        case .parent: "parent"
        case .block: "block"
        case .setDelimiters: "delimiter change"
        }
    }
}

/// A piece of template source: literal text, or one tag.
struct Token {
    enum Kind: Equatable {
        case text
        case tag(TagKind)
    }

    var kind: Kind
    /// The whole token in the source; for a tag, from its opening to its closing delimiter.
    var range: Range<Int>
    /// A tag's content after the sigil, without surrounding whitespace; the text itself for text.
    var content: Range<Int>
    /// The delimiters in effect where the token starts.
    var delimiters: Delimiters
}

/// Splits UTF-8 template source into text and tag tokens, following delimiter changes.
///
/// Malformed tags are reported and skipped; a tag that is never closed ends the scan.
struct Lexer {
    private let source: [UInt8]
    private let range: Range<Int>
    private var delimiters: Delimiters
    private(set) var tokens: [Token] = []
    private(set) var problems: [(offset: Int, message: String)] = []

    init(source: [UInt8], range: Range<Int>, delimiters: Delimiters) {
        self.source = source
        self.range = range
        self.delimiters = delimiters
    }

    mutating func scan() {
        var position = range.lowerBound
        while position < range.upperBound {
            guard let tagStart = find(delimiters.opening, from: position) else {
                appendText(position..<range.upperBound)
                return
            }
            appendText(position..<tagStart)
            guard let next = scanTag(at: tagStart) else { return }
            position = next
        }
    }

    private mutating func appendText(_ text: Range<Int>) {
        guard !text.isEmpty else { return }
        tokens.append(Token(kind: .text, range: text, content: text, delimiters: delimiters))
    }

    /// Reads the tag starting at `start`; returns where scanning continues, or nil to stop.
    private mutating func scanTag(at start: Int) -> Int? {
        let opening = delimiters.opening, closing = delimiters.closing
        let afterOpening = start + opening.count
        let tagName = String(decoding: opening, as: UTF8.self)
        let closeName = String(decoding: closing, as: UTF8.self)

        if afterOpening < range.upperBound, source[afterOpening] == UInt8(ascii: "{") {
            // Triple mustache: `{{{name}}}`, or `{` name `}` inside any delimiters.
            let terminator = [UInt8(ascii: "}")] + closing
            guard let contentEnd = find(terminator, from: afterOpening + 1) else {
                problems.append((start, "tag '\(snippet(from: start))' is never closed: expected '}\(closeName)'"))
                return nil
            }
            let end = contentEnd + terminator.count
            return addTag(.variable(escaped: false), start: start, content: afterOpening + 1..<contentEnd, end: end)
        }

        guard let contentEnd = find(closing, from: afterOpening) else {
            problems.append((start, "tag '\(snippet(from: start))' is never closed: expected '\(closeName)'"))
            return nil
        }
        let end = contentEnd + closing.count
        var kind = TagKind.variable(escaped: true)
        var contentStart = afterOpening
        if afterOpening < contentEnd {
            switch source[afterOpening] {
            case UInt8(ascii: "#"): kind = .section
            case UInt8(ascii: "^"): kind = .invertedSection
            case UInt8(ascii: "/"): kind = .close
            case UInt8(ascii: "!"): kind = .comment
            case UInt8(ascii: ">"): kind = .partial
            case UInt8(ascii: "<"): kind = .parent
            case UInt8(ascii: "$"): kind = .block
            case UInt8(ascii: "&"): kind = .variable(escaped: false)
            case UInt8(ascii: "="): kind = .setDelimiters
            default: break
            }
            if kind != .variable(escaped: true) { contentStart += 1 }
        }

        if kind != .comment, let nested = find(opening, from: afterOpening, before: contentEnd) {
            // `{{name ... {{other}}`: the first tag lost its closing delimiter.
            let unclosed = snippet(from: start, upTo: nested)
            problems.append((start, "tag '\(unclosed)' is not closed before the next '\(tagName)'"))
            return nested
        }
        if kind == .setDelimiters {
            return changeDelimiters(start: start, content: contentStart..<contentEnd, end: end)
        }
        return addTag(kind, start: start, content: contentStart..<contentEnd, end: end)
    }

    private mutating func addTag(_ kind: TagKind, start: Int, content: Range<Int>, end: Int) -> Int {
        tokens.append(Token(kind: .tag(kind), range: start..<end, content: trimmed(content), delimiters: delimiters))
        return end
    }

    /// `{{=<% %>=}}`: two non-empty delimiters without whitespace or `=`, separated by whitespace.
    private mutating func changeDelimiters(start: Int, content: Range<Int>, end: Int) -> Int {
        guard content.count >= 1, source[content.upperBound - 1] == UInt8(ascii: "=") else {
            problems.append((
                start, "delimiter change must end with '=' before the closing delimiter, as in {{=<% %>=}}"))
            return end
        }
        let inner = trimmed(content.lowerBound..<content.upperBound - 1)
        let parts = source[inner].split(whereSeparator: Self.isWhitespace)
        guard parts.count == 2 else {
            problems.append((
                start,
                "delimiter change needs an opening and a closing delimiter separated by whitespace, "
                    + "as in {{=<% %>=}}"))
            return end
        }
        guard !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else {
            problems.append((start, "delimiters cannot contain '='"))
            return end
        }
        tokens.append(Token(kind: .tag(.setDelimiters), range: start..<end, content: inner, delimiters: delimiters))
        delimiters = Delimiters(opening: Array(parts[0]), closing: Array(parts[1]))
        return end
    }

    /// The source from `start` to the end of its line, at most about 30 bytes, for messages.
    private func snippet(from start: Int, upTo limit: Int? = nil) -> String {
        let limit = limit ?? range.upperBound
        var end = start
        while end < limit, end - start < 30, source[end] != UInt8(ascii: "\n") { end += 1 }
        while end < limit, end > start, source[end] & 0xC0 == 0x80 { end -= 1 }  // scalar boundary
        return String(decoding: source[start..<end], as: UTF8.self).trimmingTrailingWhitespace
    }

    private func trimmed(_ content: Range<Int>) -> Range<Int> {
        var lower = content.lowerBound, upper = content.upperBound
        while lower < upper, Self.isWhitespace(source[lower]) { lower += 1 }
        while upper > lower, Self.isWhitespace(source[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The offset of the first occurrence of `pattern` at or after `start` and ending by `limit`.
    private func find(_ pattern: [UInt8], from start: Int, before limit: Int? = nil) -> Int? {
        let end = limit ?? range.upperBound
        guard let first = pattern.first, end - start >= pattern.count else { return nil }
        var offset = start
        let lastStart = end - pattern.count
        while offset <= lastStart {
            if source[offset] == first {
                var matched = 1
                while matched < pattern.count, source[offset + matched] == pattern[matched] { matched += 1 }
                if matched == pattern.count { return offset }
            }
            offset += 1
        }
        return nil
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }
}

extension String {
    var trimmingTrailingWhitespace: String {
        var result = self
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
