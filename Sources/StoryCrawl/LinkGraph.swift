import Foundation
import ParallelWork
import StoryModel

/// What a crawl found: the stories reached from the entries in breadth-first order, every story
/// reference between them (resolved or not), and the stories no entry reaches. Check, render and
/// write all read this one value.
public struct LinkGraph: Sendable {
    /// A story reached by the crawl.
    public struct Node: Sendable {
        public var story: Story
        /// Links followed from the nearest entry (entries are at depth 0).
        public var depth: Int
        /// The UUID of the story whose link first reached this one; nil for entries.
        public var firstLinkedFrom: String?

        public init(story: Story, depth: Int, firstLinkedFrom: String?) {
            self.story = story
            self.depth = depth
            self.firstLinkedFrom = firstLinkedFrom
        }
    }

    /// One story reference in a reached story's content.
    public struct Edge: Sendable, Hashable {
        /// The UUID of the story holding the reference.
        public var source: String
        /// Where in the source's content (`body[2].columns[0].link`).
        public var fieldPath: String
        public var kind: ReferenceKind
        /// The target as written (UUID or slug).
        public var reference: StoryReference
        /// The anchor, without `#`.
        public var anchor: String?
        /// The slug saved with a story link, when it has one (see ``staleEdges``).
        public var cachedURL: String?
        /// The UUID of the story the reference resolved to; nil when it resolves to nothing.
        public var target: String?

        public init(
            source: String, fieldPath: String, kind: ReferenceKind, reference: StoryReference,
            anchor: String? = nil, cachedURL: String? = nil, target: String?
        ) {
            self.source = source
            self.fieldPath = fieldPath
            self.kind = kind
            self.reference = reference
            self.anchor = anchor
            self.cachedURL = cachedURL
            self.target = target
        }
    }

    /// The stories reached, in breadth-first order (entries first, in the order given).
    public internal(set) var stories: [Node]
    /// Every reference in the reached stories: by source in ``stories`` order, then in document order.
    public let edges: [Edge]
    /// Stories of the source that no entry reaches, in the source's order (empty when the
    /// source cannot list its stories).
    public internal(set) var orphans: [Story]
    /// The root story: the first entry, whose page is the site root and whom a link to `/`
    /// names. Nil for a graph built without one.
    public internal(set) var root: Story?
    /// Edges whose reference resolves to no story (broken links), in ``edges`` order.
    public let unresolvedEdges: [Edge]
    /// Resolved story links whose `cachedURL` differs from the target's current `full_slug`
    /// (the link still works by UUID, but its saved slug is out of date).
    public let staleEdges: [Edge]

    private let byUUID: [StoryKey: Int]
    private let byID: [Int: Int]
    private let bySlug: [String: Int]
    /// Per node (in ``stories`` order): the positions of its edges, of those its content makes,
    /// of its listing's, and the nodes linking to it.
    private let edgesBySource: PositionLists
    private let referencesBySource: PositionLists
    private let listingsBySource: PositionLists
    private let backlinkSources: PositionLists
    /// Per edge (in ``edges`` order): the position in ``stories`` of its target; -1 for none.
    private let edgeTargets: [Int]
    /// The positions in ``edges`` of the ``staleEdges``.
    private let stalePositions: Set<Int>

    /// Builds a graph and its lookups, resolving the edges on at most `jobs` threads. The crawler
    /// makes graphs; tests elsewhere may build one by hand. Edges whose source is not among
    /// `stories` are kept in ``edges`` only; `root` should be one of `stories`.
    public init(
        stories: [Node], edges: [Edge], orphans: [Story] = [], root: Story? = nil,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        let byUUID = Self.positionsByUUID(of: stories)
        self.init(
            stories: stories, edges: edges, orphans: orphans, root: root,
            resolved: Self.resolve(edges, stories: stories, byUUID: byUUID, jobs: jobs), byUUID: byUUID)
    }

    /// Builds a graph whose edges are resolved already (as an earlier graph of the same stories
    /// and edges resolved them; see ``KeptGraph``): `resolved` holds, for each edge, the
    /// positions in `stories` of its source and target, and whether it is stale.
    init(stories: [Node], edges: [Edge], orphans: [Story], root: Story?, resolved: [ResolvedEdge]) {
        self.init(
            stories: stories, edges: edges, orphans: orphans, root: root, resolved: resolved,
            byUUID: Self.positionsByUUID(of: stories))
    }

    /// Builds a graph whose edges' ends the caller found as it made them (the crawl): `ends`
    /// holds, for each edge, the positions in `stories` of its source and target, and
    /// `positions` the position of each story by UUID, each UUID once. Only which edges are
    /// stale is found here, on at most `jobs` threads.
    init(
        stories: [Node], edges: [Edge], orphans: [Story], root: Story?, ends: [(source: Int, target: Int?)],
        positions: [StoryKey: Int], jobs: Int
    ) {
        // Each story's slug is made a lookup key once, not once for every link to it.
        let slugKeys = ParallelWork.map(count: stories.count, jobs: jobs) { SlugLookup.key(stories[$0].story.fullSlug) }
        let resolved = ParallelWork.map(count: edges.count, jobs: jobs) { position in
            ResolvedEdge(
                source: ends[position].source, target: ends[position].target,
                isStale: ends[position].target.map { Self.isStale(edgeAt: position, of: edges, targetKey: slugKeys[$0]) } ?? false)
        }
        self.init(stories: stories, edges: edges, orphans: orphans, root: root, resolved: resolved, byUUID: positions)
    }

    /// How an edge resolved: the positions in ``stories`` of its source and target (nil for
    /// none reached), and whether it is among the ``staleEdges``.
    struct ResolvedEdge {
        var source: Int?
        var target: Int?
        var isStale: Bool
    }

    /// How each of ``edges`` resolved, from the lookups the graph keeps: what
    /// ``init(stories:edges:orphans:root:resolved:)`` takes to make this graph again.
    var resolvedEdges: [ResolvedEdge] {
        var sources = [Int?](repeating: nil, count: edges.count)
        for source in 0..<edgesBySource.count {
            for edge in edgesBySource[source] { sources[edge] = source }
        }
        return edges.indices.map { ResolvedEdge(source: sources[$0], target: targetPosition(ofEdge: $0), isStale: isStaleEdge(at: $0)) }
    }

    private static func positionsByUUID(of stories: [Node]) -> [StoryKey: Int] {
        var byUUID: [StoryKey: Int] = [:]
        byUUID.reserveCapacity(stories.count)
        for (position, node) in stories.enumerated() where byUUID[node.story.key] == nil { byUUID[node.story.key] = position }
        return byUUID
    }

    private init(stories: [Node], edges: [Edge], orphans: [Story], root: Story?, resolved: [ResolvedEdge], byUUID: [StoryKey: Int]) {
        self.stories = stories
        self.edges = edges
        self.orphans = orphans
        self.root = root

        var byID: [Int: Int] = [:]
        var bySlug: [String: Int] = [:]
        bySlug.reserveCapacity(stories.count)
        for (position, node) in stories.enumerated() {
            if let id = node.story.id, byID[id] == nil { byID[id] = position }
            let key = SlugLookup.key(node.story.fullSlug)
            if bySlug[key] == nil { bySlug[key] = position }
        }

        var edgesBySource = PositionLists.Builder()
        var referencesBySource = PositionLists.Builder()
        var listingsBySource = PositionLists.Builder()
        var backlinkSources = PositionLists.Builder()
        var unresolved: [Edge] = []
        var stale: [Edge] = []
        var stalePositions: Set<Int> = []
        var edgeTargets = [Int](repeating: -1, count: edges.count)
        for position in edges.indices {
            let source = resolved[position].source
            if let source {
                edgesBySource.append(position, to: source)
                if edges[position].kind == .listing {
                    listingsBySource.append(position, to: source)
                } else {
                    referencesBySource.append(position, to: source)
                }
            }
            guard edges[position].target != nil else {
                unresolved.append(edges[position])
                continue
            }
            guard let target = resolved[position].target else { continue }
            edgeTargets[position] = target
            // A listing is navigation the site made, not a link an editor wrote.
            if let source, source != target, edges[position].kind != .listing { backlinkSources.append(source, to: target) }
            if resolved[position].isStale {
                stale.append(edges[position])
                stalePositions.insert(position)
            }
        }
        self.byUUID = byUUID
        self.byID = byID
        self.bySlug = bySlug
        self.edgesBySource = edgesBySource.lists(count: stories.count)
        self.referencesBySource = referencesBySource.lists(count: stories.count)
        self.listingsBySource = listingsBySource.lists(count: stories.count)
        self.backlinkSources = backlinkSources.lists(count: stories.count).sortedDistinct()
        self.edgeTargets = edgeTargets
        self.unresolvedEdges = unresolved
        self.staleEdges = stale
        self.stalePositions = stalePositions
    }

    /// For each edge, the positions in `stories` of its source and target (nil for none reached)
    /// and whether it is stale (see ``staleEdges``), found on at most `jobs` threads a run of
    /// edges at a time: these lookups hash UUIDs, and the graph's other work is appending.
    private static func resolve(_ edges: [Edge], stories: [Node], byUUID: [StoryKey: Int], jobs: Int) -> [ResolvedEdge] {
        let run = 1_024
        let runs = ParallelWork.map(count: (edges.count + run - 1) / run, jobs: jobs) { number in
            var found: [ResolvedEdge] = []
            found.reserveCapacity(run)
            // Edges come grouped by source, so the source lookup is mostly a comparison.
            var lastSource: (uuid: String, position: Int?)?
            for position in number * run..<min((number + 1) * run, edges.count) {
                let sourceUUID = edges[position].source
                let source = lastSource?.uuid == sourceUUID ? lastSource!.position : byUUID[StoryKey(sourceUUID)]
                lastSource = (sourceUUID, source)
                let target = edges[position].target.flatMap { byUUID[StoryKey($0)] }
                let stale = target.map { isStale(edgeAt: position, of: edges, targetKey: SlugLookup.key(stories[$0].story.fullSlug)) } ?? false
                found.append(ResolvedEdge(source: source, target: target, isStale: stale))
            }
            return found
        }
        return Array(runs.joined())
    }

    /// Whether the edge at `position` of `edges`, resolved to the story whose slug has the lookup
    /// key `targetKey`, saved another slug for it (see ``staleEdges``). It reads the edge's
    /// fields in place: a copy of the whole edge would retain every one of its strings.
    private static func isStale(edgeAt position: Int, of edges: [Edge], targetKey: String) -> Bool {
        guard let cachedURL = edges[position].cachedURL,
              !isLanguageVersion(reference: edges[position].reference, target: edges[position].target) else { return false }
        return SlugLookup.key(cachedURL) != targetKey
    }

    /// Whether an edge with `reference` and `target` names a story by UUID and leads to another
    /// one: that story's version in the crawled language (a space translated folder by folder),
    /// whose slug differs from the saved one without the link being out of date. (A numeric
    /// UUID is a short id, which names its story.)
    private static func isLanguageVersion(reference: StoryReference, target: String?) -> Bool {
        guard case .uuid(let uuid) = reference, let target else { return false }
        return uuid != target && Int(uuid) == nil
    }

    /// Whether the edge at `index` of ``edges`` is among the ``staleEdges``.
    public func isStaleEdge(at index: Int) -> Bool {
        stalePositions.contains(index)
    }

    /// The `full_slug` of the ``root`` story, or `home` when the graph has none.
    public var rootSlug: String {
        root?.fullSlug ?? SitePathReference.defaultRootSlug
    }

    /// The reached story with this UUID.
    public func story(uuid: String) -> Story? {
        node(uuid: uuid)?.story
    }

    /// The reached story's node (depth, first linked from).
    public func node(uuid: String) -> Node? {
        byUUID[StoryKey(uuid)].map { stories[$0] }
    }

    /// The reached story a reference names: a UUID (or, when it is a number, a numeric id), a
    /// numeric id, or a slug matched with ``SlugLookup/key(_:)`` (`blog` finds `blog/`).
    public func story(for reference: StoryReference) -> Story? {
        position(for: reference).map { stories[$0].story }
    }

    /// The position in ``stories`` of the reached story a reference names, found as for its story.
    public func position(for reference: StoryReference) -> Int? {
        switch reference {
        case .uuid(let uuid): byUUID[StoryKey(uuid)] ?? Int(uuid).flatMap { byID[$0] }
        case .id(let id): byID[id]
        case .slug(let slug): bySlug[SlugLookup.key(slug)]
        }
    }

    /// The reached story a story link points to, trying its ``StoryLink/lookupOrder`` as the
    /// crawler did.
    public func story(for link: StoryLink) -> Story? {
        for reference in link.lookupOrder {
            if let story = story(for: reference) { return story }
        }
        return nil
    }

    /// The edges whose source is the story with this UUID, in document order (a listing after
    /// the content).
    public func edges(from uuid: String) -> [Edge] {
        guard let source = byUUID[StoryKey(uuid)] else { return [] }
        return edgesBySource[source].map { edges[$0] }
    }

    /// The references the content of the story with this UUID makes, in document order: its
    /// edges without its listing.
    public func references(from uuid: String) -> [Edge] {
        guard let source = byUUID[StoryKey(uuid)] else { return [] }
        return referencesBySource[source].map { edges[$0] }
    }

    /// The UUIDs of the stories the start page with this UUID lists, in `full_slug` order.
    public func listing(of uuid: String) -> [String] {
        guard let source = byUUID[StoryKey(uuid)] else { return [] }
        return listingsBySource[source].compactMap { edges[$0].target }
    }

    /// The distinct stories linking to the story with this UUID, in breadth-first order,
    /// without the story itself; a folder listing it is no backlink.
    public func backlinks(to uuid: String) -> [String] {
        guard let target = byUUID[StoryKey(uuid)] else { return [] }
        return backlinkSources[target].map { stories[$0].story.uuid }
    }

    // MARK: By position
    // The same lookups by position in ``stories`` and ``edges``, for passes over every story
    // that would otherwise look each one up by UUID and copy its edges.

    /// The position in ``stories`` of the reached story with this UUID.
    public func position(of uuid: String) -> Int? {
        byUUID[StoryKey(uuid)]
    }

    /// The position in ``stories`` of the reached story with the UUID of `story`.
    public func position(of story: Story) -> Int? {
        byUUID[story.key]
    }

    /// The positions in ``edges`` of the references the content of the story at `position`
    /// makes, in document order (see ``references(from:)``).
    public func referencePositions(from position: Int) -> ArraySlice<Int> {
        referencesBySource[position]
    }

    /// The position in ``stories`` of the target of the edge at `index`; nil when it resolves
    /// to no reached story.
    public func targetPosition(ofEdge index: Int) -> Int? {
        edgeTargets[index] < 0 ? nil : edgeTargets[index]
    }

    /// The positions in ``stories`` of the distinct stories linking to the story at `position`
    /// (see ``backlinks(to:)``).
    public func backlinkPositions(to position: Int) -> ArraySlice<Int> {
        backlinkSources[position]
    }
}
