/// Which URL rule applies to a value written at the start of a URL attribute.
enum URLRule: UInt8, Sendable {
    /// ``URLSafety/isSafeLink(_:)``: `href`, `action`, `formaction`, `src` of a frame…
    case link
    /// ``URLSafety/isSafeImageSource(_:)``: `src` of an image or media element, `srcset`, `poster`.
    case image
}

/// A variable that writes the start of a URL attribute's value: the value is checked there.
struct URLAttributeStart: Sendable {
    let rule: URLRule
    /// The attribute value's quote (`"` or `'`), or 0 when the value is not quoted.
    let quote: UInt8
    /// Whether the value is a list of URLs separated by commas (`srcset`), each checked on its own.
    let isList: Bool
}

/// Follows a template's literal text through HTML at compile time, far enough to know when a
/// variable stands at the start of a URL attribute's value (`href="{{link}}"`), the way Go's
/// `html/template` escapes by context.
///
/// The text is read in source order: sections, inverted sections and blocks do not change the
/// state, and a template (a partial, a lambda's text) starts in HTML text. Comments and the raw
/// text of `script`, `style`, `textarea` and `title` hold no tags. Literal text that is not
/// whitespace ends the start of a value (`href="/docs/{{page}}"` leaves `page` alone), except that
/// a comma in `srcset` starts the next candidate.
struct HTMLContext {
    private enum State {
        case text
        /// After `<`.
        case tagOpen
        /// After `</`.
        case endTagOpen
        /// After `<!`, counting the dashes of `<!--`; -1 once it cannot be a comment.
        case markup(dashes: Int)
        case tagName
        case beforeAttributeName
        case attributeName
        case afterAttributeName
        case beforeAttributeValue
        /// `quote` is 0 for an unquoted value.
        case attributeValue(quote: UInt8)
        /// Counting the dashes of `-->`.
        case comment(dashes: Int)
        /// Inside `script`, `style`, `textarea` or `title`: counting how much of `</name` matched.
        case rawText(matched: Int)
    }

    private var state = State.text
    /// The element's name, lowercased, while its start tag is read.
    private var tagName: [UInt8] = []
    private var isEndTag = false
    /// The attribute's name, lowercased; empty when a variable wrote part of it.
    private var attributeName: [UInt8] = []
    private var attributeNameIsLiteral = true
    /// Whether the current attribute value is at its start: only whitespace literal text so far.
    private var isAtValueStart = false
    /// The URL rule of the attribute whose value is read; nil when it holds no URL.
    private var valueRule: URLRule?
    /// The closing tag a raw text element waits for (`</script`).
    private var rawTextEnd: [UInt8] = []

    /// Reads literal text that is output.
    mutating func advance(over bytes: ArraySlice<UInt8>) {
        for byte in bytes { advance(byte) }
    }

    /// Where a variable at this point writes; nil unless at the start of a URL attribute value.
    /// A variable writes as a value would, so a variable just after `=` starts an unquoted value.
    mutating func variable() -> URLAttributeStart? {
        switch state {
        case .beforeAttributeValue:
            state = .attributeValue(quote: 0)
            isAtValueStart = true
            return urlAttributeStart(quote: 0)
        case .attributeValue(let quote) where isAtValueStart:
            return urlAttributeStart(quote: quote)
        case .tagName, .attributeName, .beforeAttributeName, .afterAttributeName:
            // A variable writing (part of) a name: what follows is no attribute we know.
            attributeNameIsLiteral = false
            if case .tagName = state {} else { state = .attributeName }
            return nil
        default:
            return nil
        }
    }

    private func urlAttributeStart(quote: UInt8) -> URLAttributeStart? {
        guard attributeNameIsLiteral, let rule = valueRule else { return nil }
        return URLAttributeStart(rule: rule, quote: quote, isList: attributeName.hasSuffix("srcset"))
    }

    /// Once an attribute's name is read: the URL rule of its value.
    private mutating func startValue() {
        state = .beforeAttributeValue
        valueRule = Self.urlRule(attribute: attributeName, element: tagName)
    }

    private mutating func advance(_ byte: UInt8) {
        switch state {
        case .text:
            if byte == UInt8(ascii: "<") { state = .tagOpen }
        case .tagOpen:
            if Self.isLetter(byte) {
                startTag(byte, isEnd: false)
            } else if byte == UInt8(ascii: "/") {
                state = .endTagOpen
            } else if byte == UInt8(ascii: "!") {
                state = .markup(dashes: 0)
            } else {
                state = byte == UInt8(ascii: "<") ? .tagOpen : .text
            }
        case .endTagOpen:
            if Self.isLetter(byte) { startTag(byte, isEnd: true) } else { state = .text }
        case .markup(let dashes):
            if byte == UInt8(ascii: ">") {
                state = .text
            } else if byte == UInt8(ascii: "-"), dashes >= 0 {
                state = dashes == 1 ? .comment(dashes: 0) : .markup(dashes: 1)
            } else {
                state = .markup(dashes: -1)  // a declaration (`<!DOCTYPE html>`), not a comment
            }
        case .comment(let dashes):
            if byte == UInt8(ascii: "-") {
                state = .comment(dashes: dashes + 1)
            } else if byte == UInt8(ascii: ">"), dashes >= 2 {
                state = .text
            } else {
                state = .comment(dashes: 0)
            }
        case .tagName:
            if Self.isSpace(byte) || byte == UInt8(ascii: "/") {
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: ">") {
                endTag()
            } else {
                tagName.append(Self.lowercased(byte))
            }
        case .beforeAttributeName:
            if byte == UInt8(ascii: ">") {
                endTag()
            } else if !Self.isSpace(byte), byte != UInt8(ascii: "/") {
                startAttribute(byte)
            }
        case .attributeName:
            if Self.isSpace(byte) {
                state = .afterAttributeName
            } else if byte == UInt8(ascii: "=") {
                startValue()
            } else if byte == UInt8(ascii: ">") {
                endTag()
            } else if byte == UInt8(ascii: "/") {
                state = .beforeAttributeName
            } else {
                attributeName.append(Self.lowercased(byte))
            }
        case .afterAttributeName:
            if byte == UInt8(ascii: "=") {
                startValue()
            } else if byte == UInt8(ascii: ">") {
                endTag()
            } else if byte == UInt8(ascii: "/") {
                state = .beforeAttributeName
            } else if !Self.isSpace(byte) {
                startAttribute(byte)
            }
        case .beforeAttributeValue:
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                state = .attributeValue(quote: byte)
                isAtValueStart = true
            } else if byte == UInt8(ascii: ">") {
                endTag()
            } else if !Self.isSpace(byte) {
                state = .attributeValue(quote: 0)
                isAtValueStart = false
            }
        case .attributeValue(let quote):
            if quote != 0 ? byte == quote : Self.isSpace(byte) {
                state = .beforeAttributeName
            } else if quote == 0, byte == UInt8(ascii: ">") {
                endTag()
            } else if byte == UInt8(ascii: ","), attributeName.hasSuffix("srcset") {
                isAtValueStart = true
            } else if !Self.isSpace(byte) {
                isAtValueStart = false
            }
        case .rawText(let matched):
            if Self.lowercased(byte) == rawTextEnd[matched] {
                if matched + 1 == rawTextEnd.count {
                    tagName = Array(rawTextEnd.dropFirst(2))
                    isEndTag = true
                    state = .tagName
                } else {
                    state = .rawText(matched: matched + 1)
                }
            } else {
                state = .rawText(matched: byte == UInt8(ascii: "<") ? 1 : 0)
            }
        }
    }

    private mutating func startTag(_ first: UInt8, isEnd: Bool) {
        tagName = [Self.lowercased(first)]
        isEndTag = isEnd
        state = .tagName
    }

    private mutating func startAttribute(_ first: UInt8) {
        attributeName = [Self.lowercased(first)]
        attributeNameIsLiteral = true
        state = .attributeName
    }

    private mutating func endTag() {
        if !isEndTag, Self.rawTextElements.contains(tagName) {
            rawTextEnd = Array("</".utf8) + tagName
            state = .rawText(matched: 0)
        } else {
            state = .text
        }
        attributeName = []
        attributeNameIsLiteral = true
    }

    private static let rawTextElements = Set(["script", "style", "textarea", "title"].map { Array($0.utf8) })

    /// Attributes holding a URL, as HTML defines them (and as Go's `html/template` lists them).
    private static let urlAttributes = Set([
        "action", "archive", "background", "cite", "classid", "codebase", "data", "formaction", "href", "icon",
        "longdesc", "manifest", "ping", "profile", "usemap", "xmlns",
    ].map { Array($0.utf8) })

    /// Elements whose `src` is an image or media file, never a document or script.
    private static let mediaElements = Set(["img", "source", "video", "audio", "track", "input", "image"].map { Array($0.utf8) })

    /// The rule for `attribute` on `element`, or nil when it holds no URL. `data-` and namespace
    /// prefixes are looked through (`data-href`, `xlink:href`), and, as in Go, a name containing
    /// `src`, `uri` or `url` is taken for a URL too (`data-src`, `hx-url`).
    static func urlRule(attribute name: [UInt8], element: [UInt8]) -> URLRule? {
        var local = name[...]
        if local.starts(with: "data-".utf8) { local = local.dropFirst(5) }
        if let colon = local.lastIndex(of: UInt8(ascii: ":")) { local = local[(colon + 1)...] }
        let bare = Array(local)
        if bare == Array("poster".utf8) || bare.hasSuffix("srcset") { return .image }
        if bare == Array("src".utf8) { return mediaElements.contains(element) ? .image : .link }
        if urlAttributes.contains(bare) { return .link }
        return ["src", "uri", "url"].contains { bare.contains(Array($0.utf8)) } ? .link : nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

extension Array where Element == UInt8 {
    fileprivate func hasSuffix(_ suffix: String) -> Bool {
        count >= suffix.utf8.count && self[(count - suffix.utf8.count)...].elementsEqual(suffix.utf8)
    }
}
