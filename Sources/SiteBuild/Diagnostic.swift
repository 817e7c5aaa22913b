/// One problem found during a command: where, how bad, and what.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad: an error fails the command, a warning is only reported.
    public enum Severity: String, Sendable { case warning, error }

    public var severity: Severity
    /// A file position (`Templates/a.mustache:3:5`), a story and field (`blog/post: body[2].link`), or a path.
    public var location: String
    /// What is wrong, and where it helps, how to fix it.
    public var message: String

    /// A problem of `severity` at `location`.
    public init(severity: Severity, location: String, message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    /// An error at `location`.
    public static func error(_ location: String, _ message: String) -> Diagnostic {
        Diagnostic(severity: .error, location: location, message: message)
    }

    /// A warning at `location`.
    public static func warning(_ location: String, _ message: String) -> Diagnostic {
        Diagnostic(severity: .warning, location: location, message: message)
    }

    /// `location: severity: message`, as the command line prints it uncoloured.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}
