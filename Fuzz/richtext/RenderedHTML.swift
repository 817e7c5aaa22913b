@testable import Mustache
@testable import StoryRender

/// Reads HTML that storysite wrote itself (tags with double-quoted attributes, escaped text) and
/// stops the fuzzer at anything a browser could run or misread: an element not allowed, a raw
/// `<`, `>` or `"` where escaping should have been, an event handler attribute, or an `href` or
/// `src` that ``URLSafety`` refuses once its character references are decoded.
enum RenderedHTML {
    static func check(_ html: String, allowedElements: Set<String>) {
        let bytes = Array(html.utf8)
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "<"):
                index = tag(bytes, from: index + 1, allowedElements: allowedElements, html: html)
            case UInt8(ascii: ">"):
                require(false, "a raw '>' in text at byte \(index) of:\n\(html)")
                return
            default:
                index += 1
            }
        }
    }

    /// Reads one tag after its `<`; the index after its `>`.
    private static func tag(_ bytes: [UInt8], from start: Int, allowedElements: Set<String>, html: String) -> Int {
        var index = start
        if index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
        let name = word(bytes, &index)
        require(allowedElements.contains(name), "element <\(name)> (or a raw '<') at byte \(start - 1) of:\n\(html)")
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: ">"):
                return index + 1
            case UInt8(ascii: " "):
                index += 1
                let attribute = word(bytes, &index)
                require(!attribute.isEmpty, "an attribute without a name in <\(name)> of:\n\(html)")
                require(!attribute.hasPrefix("on"), "an event handler \(attribute) in <\(name)> of:\n\(html)")
                guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { continue }
                index += 1
                require(index < bytes.count && bytes[index] == UInt8(ascii: "\""), "an unquoted value of \(attribute) in <\(name)> of:\n\(html)")
                index += 1
                let valueStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    require(bytes[index] != UInt8(ascii: "<") && bytes[index] != UInt8(ascii: ">"), "a raw '<' or '>' in \(attribute) of:\n\(html)")
                    index += 1
                }
                require(index < bytes.count, "an unterminated value of \(attribute) in <\(name)> of:\n\(html)")
                let value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                index += 1
                checkValue(value, of: attribute, in: name, html: html)
            default:
                require(false, "unexpected '\(Character(Unicode.Scalar(bytes[index])))' in <\(name)> at byte \(index) of:\n\(html)")
                return bytes.count
            }
        }
        require(false, "an unterminated <\(name)> in:\n\(html)")
        return bytes.count
    }

    private static func checkValue(_ value: String, of attribute: String, in element: String, html: String) {
        let decoded = URLSafety.characterReferencesDecoded(value)
        switch attribute {
        case "href":
            require(URLSafety.isSafeLink(decoded), "a script URL in href=\"\(value)\" of:\n\(html)")
        case "src", "srcset":
            require(URLSafety.isSafeImageSource(decoded), "a script URL in \(attribute)=\"\(value)\" of:\n\(html)")
        case "style":
            let lowered = decoded.lowercased()
            require(!lowered.contains("url(") && !lowered.contains("expression(") && !lowered.contains("\\"), "style=\"\(value)\" can load or run something, in:\n\(html)")
        default:
            break
        }
    }

    /// The lower-case name at `index` (letters, digits, `-`, `_`, `:`, `.`), moving past it.
    private static func word(_ bytes: [UInt8], _ index: inout Int) -> String {
        let start = index
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
    }
}
