import Foundation
import ParallelWork
import StoryModel
import StorySource

/// Walks a source breadth-first from its entry stories, following every story reference
/// (see ``ReferenceExtractor``) and every folder listing (a reached start page reaches the
/// stories its folder lists; see ``Story/startPageFolder``), and returns the ``LinkGraph``.
/// The stories of named collections (``StorySelection``) start the crawl as entries do.
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
    /// The named collections, whose stories are entries too (after ``entries``).
    public let collections: [StorySelection]
    /// How many stories are read for references at once.
    public let jobs: Int
    /// References found by earlier crawls, by story digest: unchanged stories are not read again.
    public let referenceCache: ReferenceCache?

    public init(
        source: any StorySource, entries: [String] = ["home"], collections: [StorySelection] = [], baseURL: String? = nil,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, referenceCache: ReferenceCache? = nil
    ) {
        self.source = source
        self.entries = entries
        self.collections = collections
        self.baseURL = baseURL
        self.jobs = jobs
        self.referenceCache = referenceCache
    }

    /// Crawls the source. Throws ``CrawlError/entriesNotFound(_:source:)`` naming every entry
    /// the source does not have, and rethrows the source's errors.
    public func crawl() async throws -> LinkGraph {
        var catalog = StoryCatalog()
        let entryOrders = entries.map(Self.lookupOrder(ofEntry:))
        try await catalog.resolve(entryOrders, from: source)
        let missing = zip(entries, entryOrders).filter { catalog.target(of: $0.1) == nil }.map(\.0)
        guard missing.isEmpty else { throw CrawlError.entriesNotFound(missing, source: source.description) }

        // The stories reached, and the position of each by UUID: the graph's lookup, made as the
        // crawl reaches them, so that each edge's ends are found once, here.
        var nodes: [LinkGraph.Node] = []
        var positions = StoryPositions()
        var frontier: [Story] = []
        for order in entryOrders {
            guard let uuid = catalog.target(of: order), let story = catalog[StoryKey(uuid)], positions[story.key] == nil else { continue }
            positions[story.key] = nodes.count
            nodes.append(LinkGraph.Node(story: story, depth: 0, firstLinkedFrom: nil))
            frontier.append(story)
        }
        // The first entry is the root story, placed at the site root: `/` names it.
        let root = frontier.first
        let rootSlug = root?.fullSlug ?? SitePathReference.defaultRootSlug
        for selection in collections {
            for story in selection.select(from: try await source.stories(matching: selection.query)) {
                catalog.learn(story)
                guard positions[story.key] == nil else { continue }
                positions[story.key] = nodes.count
                nodes.append(LinkGraph.Node(story: story, depth: 0, firstLinkedFrom: nil))
                frontier.append(story)
            }
        }

        var table = EdgeTable()
        // Edges whose target was not reached when they were made, looked up once every story is.
        var laterTargets: [(edge: Int, uuid: String)] = []
        var depth = 0
        var firstOfLevel = 0
        while !frontier.isEmpty {
            let level = frontier
            var found = ParallelWork.map(count: level.count, jobs: jobs) { [baseURL, referenceCache] position in
                let extract = { ReferenceExtractor.references(in: level[position], baseURL: baseURL, rootSlug: rootSlug) }
                return referenceCache?.references(in: level[position], baseURL: baseURL, rootSlug: rootSlug, extract: extract) ?? extract()
            }
            var levelEdges: [StoryEdges]
            if let memory = source as? any InMemoryStorySource,
               !found.contains(where: { $0.contains { $0.embeddedStory != nil } }) {
                levelEdges = resolveAtOnce(found, of: level, at: firstOfLevel, in: memory, catalog: &catalog)
            } else {
                levelEdges = try await resolveInBatches(found, of: level, at: firstOfLevel, catalog: &catalog)
            }
            // The references are edges now.
            free(&found, leaving: [])
            let listed = try await listings(of: level)
            catalog.reserveCapacity(adding: listed.reduce(0) { $0 + $1.count })
            for members in listed { for member in members { catalog.learn(member) } }
            var placed = placing(&levelEdges, listings: listed, of: level, at: firstOfLevel, among: positions)
            var next: [Story] = []
            // Room for the level at once: grown by appends, a table of a million edges held
            // up to twice the memory it needs.
            table.reserveCapacity(
                adding: placed.reduce(0) { $0 + $1.edges.table.count }, textBytes: placed.reduce(0) { $0 + $1.edges.table.text.count })
            for (position, story) in placed.enumerated() {
                let first = table.count
                table.append(contentsOf: story.edges.table)
                for pending in story.pending {
                    if let reachedAt = positions[pending.key] {
                        table.setTarget(ofEdge: first + pending.edge, to: reachedAt, uuid: pending.uuid)
                    } else if let reached = catalog[pending.key] {
                        table.setTarget(ofEdge: first + pending.edge, to: nodes.count, uuid: pending.uuid)
                        positions[pending.key] = nodes.count
                        nodes.append(LinkGraph.Node(story: reached, depth: depth + 1, firstLinkedFrom: level[position].uuid))
                        next.append(reached)
                    } else {
                        laterTargets.append((first + pending.edge, pending.uuid))
                    }
                }
            }
            free(&placed, leaving: PlacingEdges())
            firstOfLevel += level.count
            frontier = next
            depth += 1
        }
        for (edge, uuid) in laterTargets {
            table.setTarget(ofEdge: edge, to: positions[StoryKey(uuid)], uuid: uuid)
        }

        let orphans = try await source.allStories()?.filter { positions[$0.key] == nil } ?? []
        return LinkGraph(stories: nodes, table: table, orphans: orphans, root: root, positions: positions, jobs: jobs)
    }

    /// On `jobs` threads, the edges of each story of a level (taken out of `levelEdges`) with
    /// its listing's edges added, and the target set of every edge whose story an earlier level
    /// reached (`reached` has its position); the rest are placed in order, as the level reaches
    /// new stories.
    private func placing(
        _ levelEdges: inout [StoryEdges], listings: [[Story]], of level: [Story], at firstPosition: Int, among reached: StoryPositions
    ) -> [PlacingEdges] {
        levelEdges.withUnsafeMutableBufferPointer { levelEdges in
            ParallelWork.map(count: level.count, jobs: jobs) { position in
                var edges = StoryEdges()
                swap(&edges, &levelEdges[position])
                edges.addListing(listings[position], source: firstPosition + position, uuid: level[position].uuid)
                return edges.placing(among: reached)
            }
        }
    }

    /// Empties every element of `items` on `jobs` threads, each left `empty`: freed one after
    /// the other on the crawl's thread, a level's references and edges were a third of its
    /// serial time.
    private func free<Item>(_ items: inout [Item], leaving empty: Item) {
        items.withUnsafeMutableBufferPointer { items in
            ParallelWork.forEach(count: items.count, jobs: jobs) { items[$0] = empty }
        }
    }

    /// The edges of a level's references: the stories they name are asked of the source
    /// together, one batch per fallback round. Embedded stories are learned first.
    private func resolveInBatches(
        _ found: [[ExtractedReference]], of level: [Story], at firstPosition: Int, catalog: inout StoryCatalog
    ) async throws -> [StoryEdges] {
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
            StoryEdges(source: firstPosition + position, uuid: level[position].uuid, references: found[position]) { reference in
                reference.embeddedStory?.uuid ?? resolved.target(of: reference.lookupOrder)
            }
        }
    }

    /// The edges of a level's references, resolved on `jobs` threads against what the catalog
    /// knows and then the source, which answers at once; what they found is learned after, in
    /// order. The outcome is the same as ``resolveInBatches(_:of:at:catalog:)``'s (for a level
    /// without embedded stories, which must be learned before anything resolves).
    private func resolveAtOnce<Source: InMemoryStorySource>(
        _ found: [[ExtractedReference]], of level: [Story], at firstPosition: Int, in source: Source,
        catalog: inout StoryCatalog
    ) -> [StoryEdges] {
        let known = catalog
        let resolved = ParallelWork.map(count: level.count, jobs: jobs) { position in
            var fetched: [Story] = []
            var missing: [StoryReference] = []
            let edges = StoryEdges(source: firstPosition + position, uuid: level[position].uuid, references: found[position]) { reference in
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

    /// For each story of a level, the stories its folder lists when it is a start page (in
    /// `full_slug` order), else none. An in-memory source answers on all threads; another
    /// is asked for every start page of the level at once.
    private func listings(of level: [Story]) async throws -> [[Story]] {
        if let memory = source as? any InMemoryStorySource {
            return ParallelWork.map(count: level.count, jobs: jobs) { position in
                level[position].startPageFolder.map { Self.listed(in: $0, by: level[position], among: memory.stories(answering: StoryQuery(folder: $0))) } ?? []
            }
        }
        var listed = [[Story]](repeating: [], count: level.count)
        try await withThrowingTaskGroup(of: (Int, [Story]).self) { [source] group in
            for (position, story) in level.enumerated() {
                guard let folder = story.startPageFolder else { continue }
                group.addTask { (position, Self.listed(in: folder, by: story, among: try await source.stories(matching: StoryQuery(folder: folder)))) }
            }
            for try await (position, members) in group { listed[position] = members }
        }
        return listed
    }

    /// The stories the folder `folder` lists, out of the stories below it: those directly in
    /// it and the start pages of its direct sub-folders, without `startPage` itself.
    static func listed(in folder: String, by startPage: Story, among stories: [Story]) -> [Story] {
        stories.filter { $0.uuid != startPage.uuid && $0.listingFolder == folder }
    }

    /// An entry is a UUID when it has the shape; otherwise a slug, then (for spaces with
    /// short ids such as `"1"`) a UUID.
    static func lookupOrder(ofEntry entry: String) -> [StoryReference] {
        let reference = StoryReference(parsing: entry)
        if case .slug = reference { return [reference, .uuid(entry)] }
        return [reference]
    }
}

extension StoryEdges {
    /// These edges with the targets set that `reached` (positions by UUID) has, and the
    /// others, in order, still to be placed.
    fileprivate consuming func placing(among reached: StoryPositions) -> PlacingEdges {
        var pending: [PlacingEdges.Target] = []
        for (edge, target) in targets.enumerated() {
            guard let target else { continue }
            let key = StoryKey(target)
            if let position = reached[key] {
                table.setTarget(ofEdge: edge, to: position, uuid: target)
            } else {
                pending.append(PlacingEdges.Target(edge: edge, key: key, uuid: target))
            }
        }
        targets = []  // freed here, on the level's threads
        return PlacingEdges(edges: self, pending: pending)
    }
}

/// A story's edges on their way into the graph: those whose target was reached before its level
/// are set; the others are placed in order, as the level's new stories are reached.
private struct PlacingEdges {
    struct Target {
        /// The edge's position among the story's edges.
        var edge: Int
        var key: StoryKey
        var uuid: String
    }

    var edges = StoryEdges()
    var pending: [Target] = []
}
