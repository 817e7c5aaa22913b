import Foundation
import StoryCrawl
import StoryModel
import StorySource

/// The latest crawl of each language of a site without collections (the one crawl of a site
/// without languages), with the entries and base URL it was crawled from: the next build brings
/// its graph up to date instead of crawling again
/// (``StoryCrawl/LinkGraph/updated(with:references:entries:baseURL:jobs:)``). `serve` keeps the graphs
/// in memory between rebuilds; a build starts from those the last build kept on disk
/// (``StoryCrawl/KeptGraph``, one file per language), and keeps its own.
public final class CrawlMemory: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    /// By language code (`""` without languages).
    private var latest: [String: Latest] = [:]
    /// The folder of the kept graphs, each read when its language is first asked for; nil for
    /// a memory that starts with none.
    private let folder: URL?
    /// The languages whose graph was read from ``folder`` already (found or not).
    private var read: Set<String> = []

    private struct Latest {
        var entries: [String]
        var baseURL: String?
        /// The graph; nil until a build makes it from ``kept``.
        var graph: LinkGraph?
        /// The kept graph that ``graph`` is, brought up to date, when it is that.
        var kept: KeptGraph?
        /// Whether ``graph`` is one this memory was given or brought up to date: one to keep.
        var isNew = false
    }

    /// A memory of no crawl.
    public init() {
        folder = nil
    }

    /// A memory of the crawls kept in `folder` by ``encoded()``: of none for a language
    /// whose file is missing, unreadable, corrupt or of another version.
    init(keptIn folder: URL) {
        self.folder = folder
    }

    /// The name of the file in which the crawl of `language` is kept: `content-graph`, and
    /// `content-graph.de` for a language.
    static func fileName(of language: String?) -> String {
        "content-graph" + (language.map { "." + $0 } ?? "")
    }

    /// Whether this memory holds a crawl of `language` from `entries` with `baseURL`: one that
    /// ``updatedGraph(of:entries:baseURL:source:references:jobs:)`` may bring up to date.
    func holdsCrawl(of language: String?, entries: [String], baseURL: String?) -> Bool {
        latestCrawl(of: language, entries: entries, baseURL: baseURL) != nil
    }

    /// The latest crawl of `language`, when it was from `entries` with `baseURL`.
    private func latestCrawl(of language: String?, entries: [String], baseURL: String?) -> Latest? {
        readKeptGraph(of: language)
        return lock.withLock { latest[language ?? ""].flatMap { $0.entries == entries && $0.baseURL == baseURL ? $0 : nil } }
    }

    /// Reads the kept graphs of `languages` (`nil` for a site without languages) now, rather
    /// than when a build first asks for each: a build reads them while it lists its output folder.
    func readKeptGraphs(of languages: [String?]) {
        for language in languages { readKeptGraph(of: language) }
    }

    /// Reads the kept graph of `language` from ``folder``, unless it was read already.
    private func readKeptGraph(of language: String?) {
        let key = language ?? ""
        guard let folder, lock.withLock({ read.insert(key).inserted }) else { return }
        let kept = KeptGraph.reading(folder.appendingPathComponent(Self.fileName(of: language)))
            .map { Latest(entries: $0.entries, baseURL: $0.baseURL, kept: $0) }
        lock.withLock { if latest[key] == nil { latest[key] = kept } }
    }

    /// The latest crawl's graph of `language` brought up to date with `source` and remembered,
    /// when it was crawled from `entries` with `baseURL` (see
    /// ``StoryCrawl/LinkGraph/updated(with:references:entries:baseURL:jobs:)``); nil when
    /// `source` must be crawled. `references` hold those of the latest crawl.
    func updatedGraph(
        of language: String?, entries: [String], baseURL: String?, source: LocalFolderSource, references: ReferenceCache, jobs: Int
    ) async throws -> LinkGraph? {
        guard var latest = latestCrawl(of: language, entries: entries, baseURL: baseURL) else { return nil }
        let update = if let graph = latest.graph {
            try await graph.updated(with: source, references: references, entries: entries, baseURL: baseURL, jobs: jobs)
        } else {
            try await latest.kept?.updated(with: source, references: references, jobs: jobs)
        }
        guard let update else { return nil }
        latest.graph = update.graph
        // A graph whose edges moved is written whole, not as the kept file with new digests.
        if !update.keepsEdges { latest.kept = nil }
        latest.isNew = true
        lock.withLock { self.latest[language ?? ""] = latest }
        return latest.graph
    }

    /// Remembers `graph`, crawled from `entries` with `baseURL`, as the latest of `language`.
    func remember(_ graph: LinkGraph, of language: String?, entries: [String], baseURL: String?) {
        lock.withLock { latest[language ?? ""] = Latest(entries: entries, baseURL: baseURL, graph: graph, isNew: true) }
    }

    /// The files to keep, by name (see ``fileName(of:)``): each graph remembered or brought up
    /// to date since this memory was made; none for a graph that cannot be kept.
    func encoded() -> [(name: String, file: FileChunks)] {
        let graphs = lock.withLock { latest.filter(\.value.isNew) }
        return graphs.sorted { $0.key < $1.key }.compactMap { key, latest in
            guard let graph = latest.graph else { return nil }
            let file = latest.kept.map { $0.encoded(updatedTo: graph) }
                ?? KeptGraph.encoded(graph, entries: latest.entries, baseURL: latest.baseURL)
            return file.map { (Self.fileName(of: key.isEmpty ? nil : key), $0) }
        }
    }
}
