import Foundation
import StoryCrawl

/// The link graph of the latest crawl of this process (`serve`), with the entries and base URL
/// it was crawled from: the next rebuild brings it up to date instead of crawling again, when
/// the save changed no edge (see ``StoryCrawl/LinkGraph/updated(with:references:baseURL:jobs:)``).
public final class CrawlMemory: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var latest: (entries: [String], baseURL: String?, graph: LinkGraph)?

    public init() {}

    /// The latest graph, when it was crawled from `entries` with `baseURL`.
    func graph(entries: [String], baseURL: String?) -> LinkGraph? {
        lock.withLock { latest.flatMap { $0.entries == entries && $0.baseURL == baseURL ? $0.graph : nil } }
    }

    func remember(_ graph: LinkGraph, entries: [String], baseURL: String?) {
        lock.withLock { latest = (entries, baseURL, graph) }
    }
}
