/// Why a crawl could not start or finish.
public enum CrawlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Entries (as given) that the source does not have, and the source's description.
    case entriesNotFound([String], source: String)

    public var description: String {
        switch self {
        case .entriesNotFound(let entries, let source):
            return entries.map { "entry story '\($0)' not found in \(source)" }.joined(separator: "\n")
        }
    }
}
