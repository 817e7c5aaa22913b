extension JSONValue {
    /// The value as JSON text, keys in document order and whole numbers without a fraction, so
    /// it reads back as the same value. Compact by default; `pretty` indents by two spaces, for
    /// files people read.
    public func jsonText(pretty: Bool = false) -> String {
        var text = ""
        JSONWriter(pretty: pretty).write(self, indent: "", into: &text)
        return text
    }
}

/// Writes ``JSONValue`` trees as JSON text.
private struct JSONWriter {
    let pretty: Bool

    func write(_ value: JSONValue, indent: String, into text: inout String) {
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
            writeContainer("[", "]", count: elements.count, indent: indent, into: &text) { index, inner, text in
                write(elements[index], indent: inner, into: &text)
            }
        case .object(let object):
            writeContainer("{", "}", count: object.count, indent: indent, into: &text) { index, inner, text in
                write(object[index].key, into: &text)
                text += pretty ? ": " : ":"
                write(object[index].value, indent: inner, into: &text)
            }
        }
    }

    private func writeContainer(
        _ open: String, _ close: String, count: Int, indent: String, into text: inout String,
        element: (Int, String, inout String) -> Void
    ) {
        guard count > 0 else {
            text += open + close
            return
        }
        let inner = pretty ? indent + "  " : ""
        text += open
        for index in 0..<count {
            if index > 0 { text += "," }
            if pretty { text += "\n" + inner }
            element(index, inner, &text)
        }
        if pretty { text += "\n" + indent }
        text += close
    }

    private func write(_ string: String, into text: inout String) {
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
