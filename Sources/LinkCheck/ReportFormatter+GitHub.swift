import StoryModel

extension ReportFormatter {
    /// For GitHub Actions: one workflow command per finding (`::error file=…,line=…::…` for
    /// broken links, `::warning …` for warnings), then the totals line. Page findings point at
    /// `filePrefix` + their path (the checked folder's path in the repository, such as
    /// `Output/`); story findings name the story and field in the message, and point at the
    /// story's file and line when the finding has them.
    public static func github(_ report: CheckReport, filePrefix: String = "") -> String {
        var lines: [String] = []
        for finding in report.findings {
            let command = finding.severity == .broken ? "error" : "warning"
            var message = "\(finding.severity == .broken ? "broken link" : "warning") \(problem(finding))"
            var properties: [String] = []
            switch finding.location {
            case .line(let line)?:
                properties = ["file=\(githubProperty(filePrefix + finding.source))", "line=\(line)"]
            case .field(let path)?:
                message = "\(finding.source) \(path): \(message)"
            case nil:
                message = "\(finding.source): \(message)"
            }
            if let file = finding.file, properties.isEmpty {
                properties = ["file=\(githubProperty(file.path))", "line=\(file.line)"]
            }
            let propertyText = properties.isEmpty ? "" : " " + properties.joined(separator: ",")
            lines.append("::\(command)\(propertyText)::\(githubData(message))")
        }
        lines.append(totals(report))
        return lines.joined(separator: "\n") + "\n"
    }

    /// A workflow command's message: `%`, CR and LF escaped as GitHub documents, then every
    /// other control character (ESC, BEL, NUL…) by the one rule for printed text, ``TerminalText``:
    /// the command stays one line, and the log shows no terminal escape.
    private static func githubData(_ text: String) -> String {
        TerminalText.escaped(
            text.replacingOccurrences(of: "%", with: "%25")
                .replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A"))
    }

    /// A workflow command's property value: also `:` and `,` escaped.
    private static func githubProperty(_ text: String) -> String {
        githubData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
