import Foundation
import StoryModel
import StorySource

/// Walks a source breadth-first from its entry stories, following every story reference
/// (see ``ReferenceExtractor``), and returns the ``LinkGraph``.
///
/// Each level is one batch: its stories' references are extracted in parallel, then the
/// stories they name are asked of the source together (with one more batch per fallback, such
/// as `cached_url` when an id is unknown). Every story is visited once, so cycles and self
/// links end. The order of stories and edges depends only on the content, never on timing.
public struct Crawler: Sendable {
    public let source: any StorySource
    /// The entry stories, by slug or UUID. The first is the root story: the site root `/` names it.
    public let entries: [String]
    /// The site's own URL (`https://example.com/`): absolute links to it count as site links.
    public let baseURL: String?

    public init(source: any StorySource, entries: [String] = ["home"], baseURL: String? = nil) {
        self.source = source
        self.entries = entries
        self.baseURL = baseURL
    }

    /// Crawls the source. Throws ``CrawlError/entriesNotFound(_:source:)`` naming every entry
    /// the source does not have, and rethrows the source's errors.
    public func crawl() async throws -> LinkGraph {
        var catalog = StoryCatalog()
        let entryOrders = entries.map(Self.lookupOrder(ofEntry:))
        try await catalog.resolve(entryOrders, from: source)
        let missing = zip(entries, entryOrders).filter { catalog.target(of: $0.1) == nil }.map(\.0)
        guard missing.isEmpty else { throw CrawlError.entriesNotFound(missing, source: source.description) }

        var nodes: [LinkGraph.Node] = []
        var visited: Set<String> = []
        var frontier: [Story] = []
        for order in entryOrders {
            guard let uuid = catalog.target(of: order), let story = catalog[uuid],
                  visited.insert(uuid).inserted else { continue }
            nodes.append(LinkGraph.Node(story: story, depth: 0, firstLinkedFrom: nil))
            frontier.append(story)
        }
        // The first entry is the root story, placed at the site root: `/` names it.
        let root = frontier.first
        let rootSlug = root?.fullSlug ?? SitePathReference.defaultRootSlug

        var edges: [LinkGraph.Edge] = []
        var depth = 0
        while !frontier.isEmpty {
            let found = await references(in: frontier, rootSlug: rootSlug)
            var orders: [[StoryReference]] = []
            for references in found {
                for reference in references {
                    if let story = reference.embeddedStory { catalog.learn(story) } else { orders.append(reference.lookupOrder) }
                }
            }
            try await catalog.resolve(orders, from: source)

            var next: [Story] = []
            for (position, references) in found.enumerated() {
                let source = frontier[position].uuid
                // Indexing instead of iterating copies no reference as a whole.
                for index in references.indices {
                    let target = references[index].embeddedStory?.uuid ?? catalog.target(of: references[index].lookupOrder)
                    edges.append(LinkGraph.Edge(
                        source: source, fieldPath: references[index].fieldPath, kind: references[index].kind,
                        reference: references[index].reference, anchor: references[index].anchor,
                        cachedURL: references[index].cachedURL, target: target))
                    guard let target, !visited.contains(target), let reached = catalog[target] else { continue }
                    visited.insert(target)
                    nodes.append(LinkGraph.Node(story: reached, depth: depth + 1, firstLinkedFrom: source))
                    next.append(reached)
                }
            }
            frontier = next
            depth += 1
        }

        let orphans = try await source.allStories()?.filter { !visited.contains($0.uuid) } ?? []
        return LinkGraph(stories: nodes, edges: edges, orphans: orphans, root: root)
    }

    /// An entry is a UUID when it has the shape; otherwise a slug, then (for spaces with
    /// short ids such as `"1"`) a UUID.
    private static func lookupOrder(ofEntry entry: String) -> [StoryReference] {
        let reference = StoryReference(parsing: entry)
        if case .slug = reference { return [reference, .uuid(entry)] }
        return [reference]
    }

    /// The references of each story, extracted in parallel in chunks, returned in story order;
    /// a site path `/` names the story whose `full_slug` is `rootSlug`.
    private func references(in stories: [Story], rootSlug: String) async -> [[ExtractedReference]] {
        let baseURL = baseURL
        let chunkCount = min(max(1, stories.count / 32), ProcessInfo.processInfo.activeProcessorCount * 4)
        guard chunkCount > 1 else {
            return stories.map { ReferenceExtractor.references(in: $0, baseURL: baseURL, rootSlug: rootSlug) }
        }
        let chunkSize = (stories.count + chunkCount - 1) / chunkCount
        return await withTaskGroup(of: (Int, [[ExtractedReference]]).self) { group in
            for chunk in 0..<chunkCount {
                let slice = stories[min(chunk * chunkSize, stories.count)..<min((chunk + 1) * chunkSize, stories.count)]
                group.addTask { (chunk, slice.map { ReferenceExtractor.references(in: $0, baseURL: baseURL, rootSlug: rootSlug) }) }
            }
            var results = [[[ExtractedReference]]](repeating: [], count: chunkCount)
            for await (chunk, references) in group { results[chunk] = references }
            return results.flatMap { $0 }
        }
    }
}
