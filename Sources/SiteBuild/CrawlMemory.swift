import Foundation
import StoryCrawl
import StorySource

/// The latest crawl of a site without languages or collections, with the entries and base URL
/// it was crawled from: the next build brings its graph up to date instead of crawling again,
/// when no save since changed an edge (``StoryCrawl/LinkGraph/updated(with:references:baseURL:jobs:)``).
/// `serve` keeps the graph in memory between rebuilds; a build starts from the one the last
/// build kept on disk (``StoryCrawl/KeptGraph``), and keeps its own.
public final class CrawlMemory: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var latest: Latest?
    /// Whether ``latest`` is a graph this memory was given or brought up to date: one to keep.
    private var isNew = false

    private struct Latest {
        var entries: [String]
        var baseURL: String?
        /// The graph; nil until a build makes it from ``kept``.
        var graph: LinkGraph?
        /// The kept graph that ``graph`` is, brought up to date, when it is that.
        var kept: KeptGraph?
    }

    /// A memory of no crawl.
    public init() {}

    /// A memory of the crawl kept in the file at `url`; of none when the file is missing,
    /// unreadable, corrupt or of another version.
    static func reading(_ url: URL) -> CrawlMemory {
        let memory = CrawlMemory()
        memory.latest = KeptGraph.reading(url).map { Latest(entries: $0.entries, baseURL: $0.baseURL, kept: $0) }
        return memory
    }

    /// Whether this memory holds a crawl from `entries` with `baseURL`: one that
    /// ``updatedGraph(entries:baseURL:source:references:jobs:)`` may bring up to date.
    func holdsCrawl(entries: [String], baseURL: String?) -> Bool {
        latestCrawl(entries: entries, baseURL: baseURL) != nil
    }

    /// The latest crawl, when it was from `entries` with `baseURL`.
    private func latestCrawl(entries: [String], baseURL: String?) -> Latest? {
        lock.withLock { latest.flatMap { $0.entries == entries && $0.baseURL == baseURL ? $0 : nil } }
    }

    /// The latest crawl's graph brought up to date with `source` and remembered, when it was
    /// crawled from `entries` with `baseURL` and no save since changed an edge; nil when
    /// `source` must be crawled. `references` hold those of the latest crawl.
    func updatedGraph(
        entries: [String], baseURL: String?, source: LocalFolderSource, references: ReferenceCache, jobs: Int
    ) async throws -> LinkGraph? {
        guard var latest = latestCrawl(entries: entries, baseURL: baseURL) else { return nil }
        if let graph = latest.graph {
            latest.graph = try await graph.updated(with: source, references: references, baseURL: baseURL, jobs: jobs)
        } else {
            latest.graph = try await latest.kept?.updated(with: source, references: references, jobs: jobs)
        }
        guard latest.graph != nil else { return nil }
        lock.withLock {
            self.latest = latest
            isNew = true
        }
        return latest.graph
    }

    /// Remembers `graph`, crawled from `entries` with `baseURL`, as the latest.
    func remember(_ graph: LinkGraph, entries: [String], baseURL: String?) {
        lock.withLock {
            latest = Latest(entries: entries, baseURL: baseURL, graph: graph)
            isNew = true
        }
    }

    /// The bytes of the file to keep: the graph remembered or brought up to date since this
    /// memory was made, its heads printed on at most `jobs` threads; nil when there is none
    /// (or it cannot be kept).
    func encoded(jobs: Int) -> [UInt8]? {
        guard let latest = lock.withLock({ isNew ? latest : nil }), let graph = latest.graph else { return nil }
        if let kept = latest.kept { return kept.encoded(updatedTo: graph) }
        return KeptGraph.encoded(graph, entries: latest.entries, baseURL: latest.baseURL, jobs: jobs)
    }
}
