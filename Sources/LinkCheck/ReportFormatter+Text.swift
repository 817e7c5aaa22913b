import StoryModel

extension ReportFormatter {
    /// For a person: findings grouped by source page or story, one line each with where, what
    /// target and why, then the totals line.
    ///
    /// ```
    /// about/index.html
    ///   line 12: broken: "../team/#lead": no id or <a name> 'lead' in 'team/index.html' (3 links)
    /// Checked 12,340 links in 1,000 pages: 1 broken, 0 warnings
    /// ```
    public static func text(_ report: CheckReport) -> String {
        var lines: [String] = []
        for group in bySource(report.findings) {
            lines.append(TerminalText.escaped(group.source))
            for finding in group.findings {
                let place = place(finding).map { "\(TerminalText.escaped($0)): " } ?? ""
                lines.append("  \(place)\(finding.severity.rawValue): \(problem(finding))")
            }
        }
        lines.append(totals(report))
        return lines.joined(separator: "\n") + "\n"
    }
}
