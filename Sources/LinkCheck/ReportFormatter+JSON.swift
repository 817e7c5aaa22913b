import StoryModel

extension ReportFormatter {
    /// For tools: `{"broken": [...], "checked": {"links", "pages", "stories"}, "warnings": [...]}`
    /// (`checked` also has `"unchecked": {"links", "reason"}` when external links were not checked),
    /// each finding `{"count", "field" or "line", "reason", "source", "target"}`; keys sorted,
    /// findings in report order, two-space indentation.
    public static func json(_ report: CheckReport) -> String {
        var checked = JSONObject([
            "links": .number(Double(report.links)), "pages": .number(Double(report.pages)),
            "stories": .number(Double(report.stories)),
        ])
        if report.unchecked > 0 {
            checked["unchecked"] = .object(JSONObject([
                "links": .number(Double(report.unchecked)), "reason": .string(report.uncheckedReason ?? ""),
            ]))
        }
        let broken = findings(report.findings.filter { $0.severity == .broken })
        let warnings = findings(report.findings.filter { $0.severity == .warning })
        let document = JSONObject(["broken": broken, "checked": .object(checked), "warnings": warnings])
        return escapingTerminalControls(JSONValue.object(document).jsonText(pretty: true)) + "\n"
    }

    /// JSON escapes the C0 controls already; the others ``TerminalText`` names (DEL, C1, the
    /// bidirectional overrides) are escaped too, as `\u009b`: the same strings to a JSON reader,
    /// and inert on a terminal. They can only stand inside strings, so the text is escaped as is.
    private static func escapingTerminalControls(_ json: String) -> String {
        // The C0 controls outside strings are the layout's own line breaks.
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x7F && TerminalText.isEscaped(scalar) }
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard needsEscape(scalar) else {
                escaped.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            escaped.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(escaped)
    }

    private static func findings(_ findings: [Finding]) -> JSONValue {
        .array(findings.map { finding in
            var members: [JSONObject.Entry] = [.init(key: "count", value: .number(Double(finding.occurrences)))]
            switch finding.location {
            case .field(let path)?: members.append(.init(key: "field", value: .string(path)))
            case .line(let line)?: members.append(.init(key: "line", value: .number(Double(line))))
            case nil: break
            }
            members.append(.init(key: "reason", value: .string(finding.reason)))
            members.append(.init(key: "source", value: .string(finding.source)))
            members.append(.init(key: "target", value: .string(finding.target)))
            return .object(JSONObject(members))
        })
    }
}
