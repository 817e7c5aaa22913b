import StoryModel

extension ReportFormatter {
    /// For CI test reports: a JUnit XML document with one test case per finding (a `<failure>`
    /// for a broken link, `<system-out>` for a warning) and a passing case holding the totals,
    /// so a clean check still reports one test.
    public static func junit(_ report: CheckReport) -> String {
        let failures = report.findings.count { $0.severity == .broken }
        let tests = report.findings.count + 1
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"storysite check\" tests=\"\(tests)\" failures=\"\(failures)\">",
            "  <testsuite name=\"links\" tests=\"\(tests)\" failures=\"\(failures)\">",
        ]
        for finding in report.findings {
            let name = [place(finding), "\"\(finding.target)\""].compactMap { $0 }.joined(separator: ": ")
            lines.append("    <testcase classname=\"\(xml(finding.source))\" name=\"\(xml(name))\">")
            let detail = xml([finding.source, place(finding), problem(finding)].compactMap { $0 }.joined(separator: ": "))
            switch finding.severity {
            case .broken:
                lines.append("      <failure type=\"broken\" message=\"\(xml(finding.reason))\">\(detail)</failure>")
            case .warning:
                lines.append("      <system-out>warning: \(detail)</system-out>")
            }
            lines.append("    </testcase>")
        }
        lines.append("    <testcase classname=\"storysite check\" name=\"\(xml(totals(report)))\"/>")
        lines.append("  </testsuite>")
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text for XML content or a quoted attribute: control characters escaped by the one rule
    /// for printed text (``TerminalText``: a report is read in CI logs too), markup characters
    /// escaped, and the non-characters XML 1.0 cannot hold replaced with U+FFFD.
    private static func xml(_ text: String) -> String {
        var escaped = ""
        for scalar in TerminalText.escaped(text).unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\u{FFFE}", "\u{FFFF}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
