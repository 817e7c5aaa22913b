/// Text from content (a slug, a link target, a component name) made safe to print on a terminal
/// or in a CI log: the one escaping rule for every message storysite prints.
///
/// Each control character (U+0000–U+001F, U+007F and the C1 controls U+0080–U+009F) and each
/// bidirectional override or isolate (U+202A–U+202E, U+2066–U+2069) is shown as an escape: `\n`,
/// `\r` and `\t`, and `\u{1B}` for the others. So content can neither move the cursor, recolour or
/// retitle a terminal (ESC, BEL), start a line that a CI system reads as a command
/// (`::error file=…`), nor make text read in another order than it is written.
public enum TerminalText {
    /// `text` with every character the rule names escaped; `text` itself when it has none.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isEscaped(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether the rule escapes `scalar`.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
