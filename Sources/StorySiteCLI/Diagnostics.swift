import SiteBuild
import StoryModel

/// The problems a command collects, printed together at the end rather than one by one.
struct DiagnosticLog: Sendable {
    private(set) var entries: [Diagnostic] = []

    mutating func add(_ diagnostic: Diagnostic) { entries.append(diagnostic) }
    mutating func add(contentsOf diagnostics: [Diagnostic]) { entries.append(contentsOf: diagnostics) }

    var errorCount: Int { entries.count { $0.severity == .error } }
    var warningCount: Int { entries.count { $0.severity == .warning } }
    var hasErrors: Bool { errorCount > 0 }

    /// Every diagnostic, errors first (only errors when asked, for `--quiet`), each on its own
    /// line; `error:`/`warning:` coloured when asked. Locations and messages hold content (slugs,
    /// link targets), so control characters in them are escaped (``TerminalText``): one
    /// diagnostic is always one line.
    func report(colored: Bool, errorsOnly: Bool = false) -> String {
        let ordered = entries.filter { $0.severity == .error } + (errorsOnly ? [] : entries.filter { $0.severity == .warning })
        return ordered.map { diagnostic in
            let (location, message) = (TerminalText.escaped(diagnostic.location), TerminalText.escaped(diagnostic.message))
            let severity = diagnostic.severity.rawValue
            guard colored else { return "\(location): \(severity): \(message)\n" }
            let color = diagnostic.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;33m"
            return "\(location): \(color)\(severity):\u{1B}[0m \(message)\n"
        }.joined()
    }
}
