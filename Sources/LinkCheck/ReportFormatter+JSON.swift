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
        return JSONValue.object(document).jsonText(pretty: true) + "\n"
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
