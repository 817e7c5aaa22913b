import Foundation
import StoryModel

/// Turns a ``CheckReport`` into text for a person (`text`) or for CI (`json`, `github`,
/// `junit`). Every format keeps the report's finding order, so output is stable.
public enum ReportFormatter {
    /// `Checked 12,340 links in 1,000 pages: 3 broken, 1 warning` (stories are named when checked),
    /// then, when external links were not checked, how many and why: `; 181 external links not
    /// checked: no host name resolves here (no network or DNS?)`.
    public static func totals(_ report: CheckReport) -> String {
        var scope: [String] = []
        if report.stories > 0 { scope.append(counted(report.stories, "story", "stories")) }
        if report.pages > 0 || report.stories == 0 { scope.append(counted(report.pages, "page", "pages")) }
        let brokenCount = report.findings.count { $0.severity == .broken }
        let warningCount = report.findings.count - brokenCount
        return "Checked \(counted(report.links, "link", "links")) in \(scope.joined(separator: " and ")): "
            + "\(grouped(brokenCount)) broken, \(counted(warningCount, "warning", "warnings"))"
            + (report.unchecked > 0
                ? "; \(counted(report.unchecked, "external link", "external links")) not checked: \(report.uncheckedReason ?? "")" : "")
    }

    /// `1 page`, `1,000 pages`.
    static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(grouped(count)) \(count == 1 ? singular : plural)"
    }

    /// `12340` as `12,340`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = number < 0 ? "-" : ""
        for (position, digit) in digits.enumerated() {
            if position > 0, (digits.count - position) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// The finding's place in its source: `line 12` or the field path; nil for the source as a whole.
    static func place(_ finding: Finding) -> String? {
        switch finding.location {
        case .line(let line)?: return "line \(line)"
        case .field(let path)?: return path
        case nil: return nil
        }
    }

    /// `"../team/#lead": no id 'lead' in 'team/index.html' (3 links)`, on one line: control
    /// characters in the target and reason (an attribute may hold line breaks, content may hold
    /// ESC) are escaped by the one rule for printed text, ``TerminalText``.
    static func problem(_ finding: Finding) -> String {
        let repeats = finding.occurrences > 1 ? " (\(grouped(finding.occurrences)) links)" : ""
        return TerminalText.escaped("\"\(finding.target)\": \(finding.reason)") + repeats
    }

    /// The findings grouped by source, sources in order of their first finding.
    static func bySource(_ findings: [Finding]) -> [(source: String, findings: [Finding])] {
        var groups: [(source: String, findings: [Finding])] = []
        var positions: [String: Int] = [:]
        for finding in findings {
            if let position = positions[finding.source] {
                groups[position].findings.append(finding)
            } else {
                positions[finding.source] = groups.count
                groups.append((finding.source, [finding]))
            }
        }
        return groups
    }
}
