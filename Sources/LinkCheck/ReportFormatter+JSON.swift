extension ReportFormatter {
    /// For tools: `{"broken": [...], "checked": {"links", "pages", "stories"}, "warnings": [...]}`,
    /// each finding `{"count", "field" or "line", "reason", "source", "target"}`; keys sorted,
    /// findings in report order, two-space indentation.
    public static func json(_ report: CheckReport) -> String {
        var output = "{\n  \"broken\": "
        appendFindings(report.findings.filter { $0.severity == .broken }, to: &output)
        output += ",\n  \"checked\": {\n"
        output += "    \"links\": \(report.links),\n    \"pages\": \(report.pages),\n    \"stories\": \(report.stories)\n  },\n"
        output += "  \"warnings\": "
        appendFindings(report.findings.filter { $0.severity == .warning }, to: &output)
        output += "\n}\n"
        return output
    }

    private static func appendFindings(_ findings: [Finding], to output: inout String) {
        guard !findings.isEmpty else {
            output += "[]"
            return
        }
        output += "[\n"
        for (position, finding) in findings.enumerated() {
            var members = ["\"count\": \(finding.occurrences)"]
            switch finding.location {
            case .field(let path)?: members.append("\"field\": \(jsonString(path))")
            case .line(let line)?: members.append("\"line\": \(line)")
            case nil: break
            }
            members.append("\"reason\": \(jsonString(finding.reason))")
            members.append("\"source\": \(jsonString(finding.source))")
            members.append("\"target\": \(jsonString(finding.target))")
            output += "    {\n      " + members.joined(separator: ",\n      ") + "\n    }"
            output += position < findings.count - 1 ? ",\n" : "\n"
        }
        output += "  ]"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func jsonString(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }
}
