import StoryModel

/// JSON text for files people read: two-space indentation, keys in document order, numbers
/// written so that they read back as the same value.
enum JSONText {
    static func pretty(_ value: JSONValue) -> String {
        var text = ""
        write(value, indent: "", into: &text)
        return text
    }

    private static func write(_ value: JSONValue, indent: String, into text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number):
            if number == number.rounded(), abs(number) < 9e15 {
                text += String(Int(number))
            } else {
                text += String(number)
            }
        case .string(let string): write(string, into: &text)
        case .array(let elements):
            guard !elements.isEmpty else { text += "[]"; return }
            let inner = indent + "  "
            text += "["
            for (index, element) in elements.enumerated() {
                text += index == 0 ? "\n" : ",\n"
                text += inner
                write(element, indent: inner, into: &text)
            }
            text += "\n" + indent + "]"
        case .object(let object):
            guard !object.isEmpty else { text += "{}"; return }
            let inner = indent + "  "
            text += "{"
            for (index, entry) in object.entries.enumerated() {
                text += index == 0 ? "\n" : ",\n"
                text += inner
                write(entry.key, into: &text)
                text += ": "
                write(entry.value, indent: inner, into: &text)
            }
            text += "\n" + indent + "}"
        }
    }

    private static func write(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
