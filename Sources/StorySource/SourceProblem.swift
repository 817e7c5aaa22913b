/// One problem with a file in a content folder: where (the file as the user would type it, and
/// the line and column when known) and what.
public struct SourceProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file, shown relative to the folder as given (`Content/blog/post.json`).
    public var file: String
    /// The 1-based line and column, for malformed JSON.
    public var line: Int?
    public var column: Int?
    /// What is wrong.
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `Content/blog/post.json:3:14: error: …`, or `Content/blog/post.json: error: …`.
    public var description: String {
        if let line, let column { return "\(file):\(line):\(column): error: \(message)" }
        return "\(file): error: \(message)"
    }
}

/// Every problem found while loading a content folder. Loading reads the whole folder before
/// failing, so a user sees all bad files at once.
public struct SourceProblems: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems, in file path order.
    public var problems: [SourceProblem]

    public init(_ problems: [SourceProblem]) {
        self.problems = problems
    }

    /// One problem per line.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
