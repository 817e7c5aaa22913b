import StoryModel
import StorySource

/// A crawl made again over an earlier crawl's edges, for a folder whose stories changed since
/// (``StoryUpdate/SourceChanges``): the walk is the crawl's, breadth-first from the same entries,
/// each story's edges in order, so the graph is the one a crawl gives (stories, depths, first
/// links, edges, stale links and orphans alike), but a story keeps the edges it made unless they
/// may have moved. Its edges are found again when its references changed, when it changed what
/// the crawl reads of its head, when one of its edges led to a story that is gone or did, when
/// one of them did not resolve by its story's own UUID or slug and a story is added or took a
/// new slug or id (which such a reference may now name), when it is the start page of a folder
/// that gained or lost a story, and when the earlier crawl did not reach it. The others resolve
/// as before and their listings list the same stories.
struct CrawlReplay {
    let source: LocalFolderSource
    let update: StoryUpdate

    /// The earlier crawl: its entries as given and its stories' UUIDs in order (the entries'
    /// first, at depth 0), and its edges, each story's together in that order, as a crawl adds
    /// them, with the positions of the stale ones (see ``LinkGraph/staleEdges``).
    struct Earlier {
        var entries: [String]
        var uuids: [String]
        var entryCount: Int
        /// The root story's position (among the entries); nil for none.
        var root: Int?
        var table: EdgeTable
        var stale: [Int]
    }

    /// The graph a crawl of ``source`` gives, `changes` being how its stories stand against the
    /// earlier crawl's. Nil when the replay cannot be sure of giving the crawl's graph: two
    /// stories have the same numeric id (which one a reference by id names depends on the order
    /// of the crawl, which the changes may have changed); an entry is gone, moved or may name
    /// another story now; the root is not an entry; the earlier edges are not in story order or
    /// lead to a story not reached; or a reference to find again comes with the story it names.
    func graph(replaying earlier: Earlier, changes: StoryUpdate.SourceChanges, jobs: Int) async throws -> LinkGraph? {
        let current = changes.reached.stories
        // The root is one of the entries (a kept graph read from a damaged file may say otherwise).
        guard !source.repeatsIDs, current.count == earlier.uuids.count, earlier.entryCount <= current.count,
              earlier.root.map({ $0 < earlier.entryCount }) ?? true,
              let runs = earlier.table.runsBySource(storyCount: earlier.uuids.count),
              let refound = storiesToFindAgain(earlier, changes: changes, runs: runs) else { return nil }
        var earlierPositions = StoryPositions(minimumCapacity: earlier.uuids.count)
        for (position, uuid) in earlier.uuids.enumerated() { earlierPositions[StoryKey(uuid)] = position }
        // Where each story of the earlier crawl is now (-1 until reached), and where the others are, by UUID.
        var placed = [Int](repeating: -1, count: current.count)
        var placedOthers: [String: Int] = [:]
        var nodes: [LinkGraph.Node] = []
        for (position, story) in current.prefix(earlier.entryCount).enumerated() {
            guard let story else { return nil }
            placed[position] = nodes.count
            nodes.append(LinkGraph.Node(story: story, depth: 0, firstLinkedFrom: nil))
        }
        /// The position of the story with the UUID `uuid` that an edge from the story at `source`
        /// leads to: placed now when this is the first edge to reach it, as in the crawl. `target`
        /// is its position in the earlier crawl, nil when that did not reach it. Nil when the
        /// source does not have it.
        func place(earlier target: Int?, uuid: String, from source: Int) -> Int? {
            if let target, placed[target] >= 0 { return placed[target] }
            if target == nil, let position = placedOthers[uuid] { return position }
            guard let story = target.map({ current[$0] }) ?? self.source.story(for: .uuid(uuid)) else { return nil }
            let position = nodes.count
            if let target { placed[target] = position } else { placedOthers[uuid] = position }
            nodes.append(LinkGraph.Node(story: story, depth: nodes[source].depth + 1, firstLinkedFrom: nodes[source].story.uuid))
            return position
        }

        var table = EdgeTable()
        table.reserveCapacity(adding: earlier.table.count, textBytes: earlier.table.text.count)
        var wasStale = [Bool](repeating: false, count: earlier.table.count)
        for edge in earlier.stale where edge < wasStale.count { wasStale[edge] = true }
        var stale: [Int] = []
        var next = 0
        while next < nodes.count {
            let first = table.count
            if let earlierPosition = earlierPositions[nodes[next].story.key], !refound[earlierPosition] {
                // Its earlier edges, each to the story it led to, stale as it was.
                let run = runs[earlierPosition]
                table.append(edges: run, of: earlier.table, source: next)
                for edge in run {
                    if wasStale[edge] { stale.append(first + edge - run.lowerBound) }
                    guard let target = earlier.table.target(ofEdge: edge) else {
                        // Resolved to a story the crawl did not reach: no crawl of a folder makes one.
                        if earlier.table.isResolved(edge) { return nil }
                        continue
                    }
                    guard let position = place(earlier: target, uuid: earlier.uuids[target], from: next) else { return nil }
                    table.setTarget(ofEdge: first + edge - run.lowerBound, to: position, uuid: earlier.uuids[target])
                }
            } else {
                guard let edges = edges(of: nodes[next].story, at: next) else { return nil }
                table.append(contentsOf: edges.table)
                for (offset, uuid) in edges.targets.enumerated() {
                    guard let uuid else { continue }
                    guard let target = place(earlier: earlierPositions[StoryKey(uuid)], uuid: uuid, from: next) else { return nil }
                    table.setTarget(ofEdge: first + offset, to: target, uuid: uuid)
                    if table.isStale(edgeAt: first + offset, target: nodes[target].story) { stale.append(first + offset) }
                }
            }
            next += 1
        }
        let orphans = try await source.allStories()?.filter { story in
            earlierPositions[story.key].map { placed[$0] < 0 } ?? (placedOthers[story.uuid] == nil)
        } ?? []
        return LinkGraph(stories: nodes, table: table, orphans: orphans, root: earlier.root.map { nodes[$0].story }, stale: stale, jobs: jobs)
    }

    /// For each story the earlier crawl reached, whether its edges must be found again (see
    /// ``CrawlReplay``); nil when an entry is gone or moved, or may name another story now.
    private func storiesToFindAgain(_ earlier: Earlier, changes: StoryUpdate.SourceChanges, runs: [Range<Int>]) -> [Bool]? {
        guard !changes.reached.moved.contains(where: { $0 < earlier.entryCount }) else { return nil }
        var refound = [Bool](repeating: false, count: earlier.uuids.count)
        for position in changes.reached.relinked { refound[position] = true }
        var moved = [Bool](repeating: false, count: earlier.uuids.count)
        for position in changes.reached.moved { (refound[position], moved[position]) = (true, true) }
        let arrived = changes.arrived
        if !arrived.isEmpty {
            // References by UUID, slug or id that a story added or moved may now answer.
            var uuids = Set<String>(), slugs = Set<String>(), ids = Set<Int>()
            for story in arrived {
                uuids.insert(story.uuid)
                slugs.insert(SlugLookup.key(story.fullSlug))
                if let id = story.id { ids.insert(id) }
            }
            let mayNameArrived = { (reference: StoryReference) in
                switch reference {
                case .uuid(let uuid): uuids.contains(uuid)
                case .slug(let slug): slugs.contains(SlugLookup.key(slug))
                case .id(let id): ids.contains(id)
                }
            }
            guard !earlier.entries.contains(where: { Crawler.lookupOrder(ofEntry: $0).contains(where: mayNameArrived) }) else { return nil }
        }
        // Folders that gained or lost a story: their start pages list other stories now.
        let folders = Set(changes.departed.map(\.listingFolder) + arrived.map(\.listingFolder))
        let checksEdges = !changes.reached.moved.isEmpty || !arrived.isEmpty
        for (position, run) in runs.enumerated() where !refound[position] {
            if let folder = changes.reached.stories[position]?.startPageFolder, folders.contains(folder) {
                refound[position] = true
            } else if checksEdges {
                refound[position] = run.contains { edge in
                    if let target = earlier.table.target(ofEdge: edge), moved[target] { return true }
                    return !arrived.isEmpty && !earlier.table.resolvedByItsOwnName(edge)
                }
            }
        }
        return refound
    }

    /// The edges of `story`, at `position` in the graph, as the crawl finds them: its references
    /// resolved in ``source`` (whose UUIDs, slugs and ids name one story each, as the crawl's
    /// catalog finds them), then its listing's. Nil for a reference that comes with the story it
    /// names, which the crawl learns before it resolves the others.
    private func edges(of story: Story, at position: Int) -> StoryEdges? {
        let references = update.references(in: story)
        guard !references.contains(where: { $0.embeddedStory != nil }) else { return nil }
        let catalog = StoryCatalog()
        var edges = StoryEdges(source: position, uuid: story.uuid, references: references) { reference in
            catalog.resolve(reference.lookupOrder, in: source).uuid
        }
        if let folder = story.startPageFolder {
            let members = Crawler.listed(in: folder, by: story, among: source.stories(answering: StoryQuery(folder: folder)))
            edges.addListing(members, source: position, uuid: story.uuid)
        }
        return edges
    }
}
