/// The result of a check: its findings in a stable order (by source, then by place in the
/// source) and what was checked.
public struct CheckReport: Sendable, Hashable {
    public var findings: [Finding]
    /// Stories whose content links were checked.
    public var stories: Int
    /// HTML pages whose links were checked.
    public var pages: Int
    /// Links checked (each occurrence; links that are not checked, such as `mailto:`, or
    /// external ones without external checking, are not counted).
    public var links: Int
    /// External links that were to be checked but were not (each occurrence), and why.
    public var unchecked: Int
    public var uncheckedReason: String?

    public init(
        findings: [Finding] = [], stories: Int = 0, pages: Int = 0, links: Int = 0, unchecked: Int = 0, uncheckedReason: String? = nil
    ) {
        self.findings = findings
        self.stories = stories
        self.pages = pages
        self.links = links
        self.unchecked = unchecked
        self.uncheckedReason = uncheckedReason
    }

    public var broken: [Finding] { findings.filter { $0.severity == .broken } }
    public var warnings: [Finding] { findings.filter { $0.severity == .warning } }
    /// Whether anything is broken: a check then exits with 1.
    public var hasBrokenLinks: Bool { findings.contains { $0.severity == .broken } }

    /// This report followed by `other` (content level, then HTML level), with counts added.
    public func merged(with other: CheckReport) -> CheckReport {
        CheckReport(
            findings: findings + other.findings, stories: stories + other.stories,
            pages: pages + other.pages, links: links + other.links,
            unchecked: unchecked + other.unchecked, uncheckedReason: uncheckedReason ?? other.uncheckedReason)
    }
}
