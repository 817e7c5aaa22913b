/// One problem a check found: where (a story's field or a page's line), which target as
/// written, and why.
public struct Finding: Sendable, Hashable {
    /// Broken links fail a check; warnings are reported without failing it.
    public enum Severity: String, Sendable, Hashable {
        case broken
        case warning
    }

    /// Where in the source the link sits.
    public enum Location: Sendable, Hashable {
        /// A content field path (`body[2].columns[0].link`), for a story.
        case field(String)
        /// A 1-based line number, for a page.
        case line(Int)
    }

    public var severity: Severity
    /// A story's `full_slug` (content level) or a file path relative to the checked folder
    /// (HTML level).
    public var source: String
    /// Where in the source; nil when the finding is about the source as a whole (an orphan).
    public var location: Location?
    /// The link target as written (for several occurrences, the first).
    public var target: String
    public var reason: String
    /// How many links in the source lead to this resolved target for this reason; the location
    /// is the first one's.
    public var occurrences: Int
    /// The file and line to annotate for a story's finding (the story's JSON file, at the
    /// field), when the caller knows where the story was read; nil otherwise.
    public var file: FilePosition?

    /// A line of a file, as a path relative to the working folder.
    public struct FilePosition: Sendable, Hashable {
        public var path: String
        public var line: Int

        public init(path: String, line: Int) {
            self.path = path
            self.line = line
        }
    }

    public init(severity: Severity, source: String, location: Location?, target: String, reason: String, occurrences: Int = 1) {
        self.severity = severity
        self.source = source
        self.location = location
        self.target = target
        self.reason = reason
        self.occurrences = occurrences
    }
}
