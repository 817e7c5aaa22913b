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
    /// Every reference in the reached stories: by source in ``stories`` order, then in document
    /// order. Held flat (see ``EdgeTable``); each is made an ``Edge`` when read.
    public var edges: Edges { Edges(table: table, stories: stories) }
    /// A hash of the graph's shape: where each edge leads (by positions in ``stories``), its
    /// kind and whether it resolved. Two graphs of the same stories with the same shape read
    /// each other's stories alike.
    public var edgeShape: UInt64 { table.shape }
    /// Stories of the source that no entry reaches, in the source's order (empty when the
    /// source cannot list its stories).
    public internal(set) var orphans: [Story]
    /// The root story: the first entry, whose page is the site root and whom a link to `/`
    /// names. Nil for a graph built without one.
    public internal(set) var root: Story?
    /// Edges whose reference resolves to no story (broken links), in ``edges`` order.
    public var unresolvedEdges: [Edge] {
        let edges = edges
        return unresolvedPositions.map { edges[$0] }
    }
    /// Resolved story links whose `cachedURL` differs from the target's current `full_slug`
    /// (the link still works by UUID, but its saved slug is out of date).
    public var staleEdges: [Edge] {
        let edges = edges
        return stalePositions.map { edges[$0] }
    }

    let table: EdgeTable
    private let byUUID: StoryPositions
    private let byID: [Int: Int]
    private let bySlug: [String: Int]
    /// Per node (in ``stories`` order): the positions of its edges, of those its content makes,
    /// of its listing's, and the nodes linking to it.
    private let edgesBySource: PositionLists
    private let referencesBySource: PositionLists
    private let listingsBySource: PositionLists
    private let backlinkSources: PositionLists
    /// The positions in ``edges`` of the ``unresolvedEdges`` and of the ``staleEdges``, in order.
    private let unresolvedPositions: [Int]
    let stalePositions: [Int]

    /// Builds a graph and its lookups, resolving the edges on at most `jobs` threads. The crawler
    /// makes graphs; tests elsewhere may build one by hand. Edges whose source is not among
    /// `stories` are kept in ``edges`` only; `root` should be one of `stories`.
    public init(
        stories: [Node], edges: [Edge], orphans: [Story] = [], root: Story? = nil,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        let byUUID = Self.positionsByUUID(of: stories)
        self.init(
            stories: stories, table: Self.table(of: edges, byUUID: byUUID, jobs: jobs), orphans: orphans, root: root,
            positions: byUUID, jobs: jobs)
    }

    /// Builds a graph of edges resolved already, whose ends are in `table`: by the crawl as it
    /// made them, with `positions`, the position of each story by UUID (each UUID once), or as
    /// an earlier graph of the same stories and edges resolved them (see ``KeptGraph``), with the
    /// positions of its stale edges, `stale`. What is not given is found here, on at most `jobs` threads.
    init(
        stories: [Node], table: EdgeTable, orphans: [Story], root: Story?, positions: StoryPositions? = nil,
        stale: [Int]? = nil, jobs: Int
    ) {
        self.stories = stories
        self.table = table
        self.orphans = orphans
        self.root = root
        self.stalePositions = stale ?? Self.stalePositions(of: table, stories: stories, jobs: jobs)
        // The stories' lookups, the edges' lists by source and the backlinks do not depend on
        // each other: made side by side.
        let ((lookups, backlinks), bySource) = ParallelWork.both(
            jobs: jobs,
            { (StoryLookups(of: stories, byUUID: positions), Backlinks(of: table, storyCount: stories.count)) },
            { EdgesBySource(of: table, storyCount: stories.count) })
        self.byUUID = lookups.byUUID
        self.byID = lookups.byID
        self.bySlug = lookups.bySlug
        self.edgesBySource = bySource.edges
        self.referencesBySource = bySource.references
        self.listingsBySource = bySource.listings
        self.backlinkSources = backlinks.sources
        self.unresolvedPositions = backlinks.unresolved
    }

    /// Where each story is, by UUID, numeric id and slug key (the first story of each).
    private struct StoryLookups {
        var byUUID: StoryPositions
        var byID: [Int: Int] = [:]
        var bySlug: [String: Int] = [:]

        /// The lookups of `stories`, with `byUUID` when it is known already.
        init(of stories: [Node], byUUID: StoryPositions?) {
            self.byUUID = byUUID ?? LinkGraph.positionsByUUID(of: stories)
            bySlug.reserveCapacity(stories.count)
            for (position, node) in stories.enumerated() {
                if let id = node.story.id { byID.insertIfAbsent(position, forKey: id) }
                let key = SlugLookup.key(node.story.fullSlug)
                bySlug.insertIfAbsent(position, forKey: key)
            }
        }
    }

    /// Per story, the positions of the edges of a table it is the source of: all of them, its
    /// content's, its listing's.
    private struct EdgesBySource {
        var edges: PositionLists
        var references: PositionLists
        var listings: PositionLists

        init(of table: EdgeTable, storyCount: Int) {
            var edges = PositionLists.Builder(capacity: table.count)
            var references = PositionLists.Builder(capacity: table.count)
            var listings = PositionLists.Builder()
            let listing = ReferenceKind.listing.code
            for position in 0..<table.count {
                guard let source = table.source(ofEdge: position) else { continue }
                edges.append(position, to: source)
                if table.kinds[position] == listing {
                    listings.append(position, to: source)
                } else {
                    references.append(position, to: source)
                }
            }
            self.edges = edges.lists(count: storyCount)
            self.references = references.lists(count: storyCount)
            self.listings = listings.lists(count: storyCount)
        }
    }

    /// Per story, the stories whose content links to it (each once, in order); and the
    /// positions of the edges of a table that resolve to no story.
    private struct Backlinks {
        var sources: PositionLists
        var unresolved: [Int] = []

        init(of table: EdgeTable, storyCount: Int) {
            var sources = PositionLists.Builder(capacity: table.count)
            let listing = ReferenceKind.listing.code
            for position in 0..<table.count {
                guard let target = table.target(ofEdge: position) else {
                    if !table.isResolved(position) { unresolved.append(position) }
                    continue
                }
                // A listing is navigation the site made, not a link an editor wrote.
                if let source = table.source(ofEdge: position), source != target, table.kinds[position] != listing {
                    sources.append(source, to: target)
                }
            }
            self.sources = sources.lists(count: storyCount).sortedDistinct()
        }
    }

    private static func positionsByUUID(of stories: [Node]) -> StoryPositions {
        var byUUID = StoryPositions(minimumCapacity: stories.count)
        for (position, node) in stories.enumerated() where byUUID[node.story.key] == nil { byUUID[node.story.key] = position }
        return byUUID
    }

    /// The table of `edges`, their ends looked up in `byUUID` on at most `jobs` threads a run of
    /// edges at a time (these lookups hash UUIDs).
    private static func table(of edges: [Edge], byUUID: StoryPositions, jobs: Int) -> EdgeTable {
        let run = 1_024
        let runs = ParallelWork.map(count: (edges.count + run - 1) / run, jobs: jobs) { number in
            var table = EdgeTable()
            // Edges come grouped by source, so the source lookup is mostly a comparison.
            var lastSource: (uuid: String, position: Int?)?
            for position in number * run..<min((number + 1) * run, edges.count) {
                let sourceUUID = edges[position].source
                let source = lastSource?.uuid == sourceUUID ? lastSource!.position : byUUID[StoryKey(sourceUUID)]
                lastSource = (sourceUUID, source)
                let target = edges[position].target
                table.append(
                    source: source, sourceUUID: sourceUUID, fieldPath: edges[position].fieldPath, kind: edges[position].kind,
                    reference: edges[position].reference, anchor: edges[position].anchor, cachedURL: edges[position].cachedURL,
                    target: target)
                table.setTarget(ofEdge: table.count - 1, to: target.flatMap { byUUID[StoryKey($0)] }, uuid: target)
            }
            return table
        }
        var table = EdgeTable()
        table.reserveCapacity(adding: edges.count, textBytes: runs.reduce(0) { $0 + $1.text.count })
        for part in runs { table.append(contentsOf: part) }
        return table
    }

    /// The positions of the edges of `table` that are stale (see ``staleEdges``), found on at
    /// most `jobs` threads.
    private static func stalePositions(of table: EdgeTable, stories: [Node], jobs: Int) -> [Int] {
        let slugs = FullSlugs(of: stories)
        let run = 4_096
        let runs = ParallelWork.map(count: (table.count + run - 1) / run, jobs: jobs) { number in
            var stale: [Int] = []
            for position in number * run..<min((number + 1) * run, table.count) {
                guard let target = table.target(ofEdge: position) else { continue }
                let isStale = slugs.withSlug(at: target) { slug in
                    table.isStale(edgeAt: position, targetSlug: slug) { stories[target].story }
                }
                if isStale { stale.append(position) }
            }
            return stale
        }
        return Array(runs.joined())
    }

    /// Whether the edge at `index` of ``edges`` is among the ``staleEdges``.
    public func isStaleEdge(at index: Int) -> Bool {
        stalePositions.binarySearchContains(index)
    }

    /// Whether the edge at `index` of ``edges`` is among the ``unresolvedEdges``: it resolves to no story.
    public func isUnresolvedEdge(at index: Int) -> Bool {
        !table.isResolved(index)
    }

    /// The kind of the edge at `index` of ``edges``.
    public func kind(ofEdge index: Int) -> ReferenceKind {
        table.kind(ofEdge: index)
    }

    /// Mixes into `fingerprint` what the content wrote of the edge at `index` of ``edges``, read
    /// in place: its field path, kind, reference, anchor and saved slug. A reference by the
    /// target's UUID is mixed in as that fact alone, so the caller mixes in the target too.
    public func combineWritten(ofEdge index: Int, into fingerprint: inout Fingerprint) {
        table.combineWritten(ofEdge: index, into: &fingerprint)
    }

    /// The UUID the edge at `index` of ``edges`` resolved to; nil for none.
    func targetUUID(ofEdge index: Int) -> String? {
        table.targetUUID(ofEdge: index) { stories[$0].story.uuid }
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
        let edges = edges
        return edgesBySource[source].map { edges[$0] }
    }

    /// The references the content of the story with this UUID makes, in document order: its
    /// edges without its listing.
    public func references(from uuid: String) -> [Edge] {
        guard let source = byUUID[StoryKey(uuid)] else { return [] }
        let edges = edges
        return referencesBySource[source].map { edges[$0] }
    }

    /// The UUIDs of the stories the start page with this UUID lists, in `full_slug` order.
    public func listing(of uuid: String) -> [String] {
        guard let source = byUUID[StoryKey(uuid)] else { return [] }
        return listingsBySource[source].compactMap(targetUUID(ofEdge:))
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
        table.target(ofEdge: index)
    }

    /// The positions in ``stories`` of the distinct stories linking to the story at `position`
    /// (see ``backlinks(to:)``).
    public func backlinkPositions(to position: Int) -> ArraySlice<Int> {
        backlinkSources[position]
    }
}

extension LinkGraph {
    /// Every edge of a graph, in order, each made an ``Edge`` (strings and all) when read: a
    /// pass over many edges reads what it needs through the graph instead (``kind(ofEdge:)``,
    /// ``targetPosition(ofEdge:)``, ``isUnresolvedEdge(at:)``).
    public struct Edges: RandomAccessCollection, Equatable, Sendable {
        let table: EdgeTable
        let stories: [Node]

        public var startIndex: Int { 0 }
        public var endIndex: Int { table.count }

        public subscript(index: Int) -> Edge {
            table.edge(at: index) { stories[$0].story.uuid }
        }

        public static func == (lhs: Edges, rhs: Edges) -> Bool {
            lhs.elementsEqual(rhs)
        }
    }
}

extension [Int] {
    /// Whether this sorted array holds `value`.
    fileprivate func binarySearchContains(_ value: Int) -> Bool {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value
    }
}
