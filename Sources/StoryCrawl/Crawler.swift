import Foundation
import ParallelWork
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
    /// How many stories are read for references at once.
    public let jobs: Int

    public init(
        source: any StorySource, entries: [String] = ["home"], baseURL: String? = nil,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.source = source
        self.entries = entries
        self.baseURL = baseURL
        self.jobs = jobs
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
            let level = frontier
            let found = ParallelWork.map(count: level.count, jobs: jobs) { [baseURL] position in
                ReferenceExtractor.references(in: level[position], baseURL: baseURL, rootSlug: rootSlug)
            }
            let levelEdges: [[LinkGraph.Edge]]
            if let memory = source as? any InMemoryStorySource,
               !found.contains(where: { $0.contains { $0.embeddedStory != nil } }) {
                levelEdges = resolveAtOnce(found, of: level, in: memory, catalog: &catalog)
            } else {
                levelEdges = try await resolveInBatches(found, of: level, catalog: &catalog)
            }
            var next: [Story] = []
            for storyEdges in levelEdges {
                for index in storyEdges.indices {
                    guard let target = storyEdges[index].target, !visited.contains(target), let reached = catalog[target] else { continue }
                    visited.insert(target)
                    nodes.append(LinkGraph.Node(story: reached, depth: depth + 1, firstLinkedFrom: storyEdges[index].source))
                    next.append(reached)
                }
                edges += storyEdges
            }
            frontier = next
            depth += 1
        }

        let orphans = try await source.allStories()?.filter { !visited.contains($0.uuid) } ?? []
        return LinkGraph(stories: nodes, edges: edges, orphans: orphans, root: root)
    }

    /// The edges of a level's references: the stories they name are asked of the source
    /// together, one batch per fallback round. Embedded stories are learned first.
    private func resolveInBatches(
        _ found: [[ExtractedReference]], of level: [Story], catalog: inout StoryCatalog
    ) async throws -> [[LinkGraph.Edge]] {
        var orders: [[StoryReference]] = []
        for references in found {
            for index in references.indices {  // indexing copies no reference as a whole
                if let story = references[index].embeddedStory {
                    catalog.learn(story)
                } else {
                    orders.append(references[index].lookupOrder)
                }
            }
        }
        try await catalog.resolve(orders, from: source)
        // Each story's edges with their targets, in parallel (the catalog is only read now).
        let resolved = catalog
        return ParallelWork.map(count: level.count, jobs: jobs) { position in
            Self.edges(from: level[position].uuid, references: found[position]) { reference in
                reference.embeddedStory?.uuid ?? resolved.target(of: reference.lookupOrder)
            }
        }
    }

    /// The edges of a level's references, resolved on `jobs` threads against what the catalog
    /// knows and then the source, which answers at once; what they found is learned after, in
    /// order. The outcome is the same as ``resolveInBatches(_:of:catalog:)``'s (for a level
    /// without embedded stories, which must be learned before anything resolves).
    private func resolveAtOnce(
        _ found: [[ExtractedReference]], of level: [Story], in source: any InMemoryStorySource, catalog: inout StoryCatalog
    ) -> [[LinkGraph.Edge]] {
        let known = catalog
        let resolved = ParallelWork.map(count: level.count, jobs: jobs) { position in
            var fetched: [Story] = []
            var missing: [StoryReference] = []
            let edges = Self.edges(from: level[position].uuid, references: found[position]) { reference in
                let resolution = known.resolve(reference.lookupOrder, in: source)
                if let story = resolution.fetched { fetched.append(story) }
                missing += resolution.missing
                return resolution.uuid
            }
            return (edges: edges, fetched: fetched, missing: missing)
        }
        for result in resolved { catalog.learn(result.fetched, missing: result.missing) }
        return resolved.map(\.edges)
    }

    /// An entry is a UUID when it has the shape; otherwise a slug, then (for spaces with
    /// short ids such as `"1"`) a UUID.
    private static func lookupOrder(ofEntry entry: String) -> [StoryReference] {
        let reference = StoryReference(parsing: entry)
        if case .slug = reference { return [reference, .uuid(entry)] }
        return [reference]
    }

    /// The edges of the references found in the story `source`, each with the UUID `target` gives.
    private static func edges(
        from source: String, references: [ExtractedReference], target: (borrowing ExtractedReference) -> String?
    ) -> [LinkGraph.Edge] {
        // Indexing instead of iterating copies no reference as a whole.
        references.indices.map { index in
            LinkGraph.Edge(
                source: source, fieldPath: references[index].fieldPath, kind: references[index].kind,
                reference: references[index].reference, anchor: references[index].anchor,
                cachedURL: references[index].cachedURL, target: target(references[index]))
        }
    }
}
