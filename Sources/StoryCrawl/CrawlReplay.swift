import StoryModel
import StorySource

/// A crawl made again over an earlier crawl's edges: for a folder that holds the stories the
/// earlier crawl found, each with what the crawl reads of its head unchanged (see
/// ``CrawledHead``), some with other references (``StoryUpdate/Versions/relinked``). Every
/// reference then resolves as before and every start page lists the same stories, so a story
/// whose references did not change makes the edges it made: only the others', and those of
/// the stories the new links reach for the first time, are found again. The walk is the
/// crawl's (breadth-first from the same entries, each story's edges in order), so the graph is
/// the one a crawl gives: stories, depths, first links, edges and orphans alike.
struct CrawlReplay {
    let source: LocalFolderSource
    let update: StoryUpdate

    /// The earlier crawl: its stories' UUIDs in order (the entries first, at depth 0), and its
    /// edges, each story's together in that order, as a crawl adds them, with the positions of
    /// the stale ones (see ``LinkGraph/staleEdges``).
    struct Earlier {
        var uuids: [String]
        var entryCount: Int
        /// The root story's position (among the entries); nil for none.
        var root: Int?
        var table: EdgeTable
        var stale: [Int]
    }

    /// The graph a crawl of ``source`` gives, `current` being the current versions of the
    /// earlier crawl's stories (in its order) and `relinked` the positions of those whose
    /// references changed. Nil when the replay cannot be sure of giving the crawl's graph: the
    /// earlier edges are not in story order or lead to a story not reached, or a reference to
    /// find again is by numeric id (ids may repeat in a folder, and which story has one then
    /// depends on the crawl's order) or comes with the story it names.
    func graph(replaying earlier: Earlier, current: [Story], relinked: [Int], jobs: Int) async throws -> LinkGraph? {
        guard current.count == earlier.uuids.count, earlier.entryCount <= current.count, (earlier.root ?? 0) < max(earlier.entryCount, 1),
              let runs = earlier.table.runsBySource(storyCount: earlier.uuids.count) else { return nil }
        let changed = Set(relinked)
        var earlierPositions = StoryPositions(minimumCapacity: earlier.uuids.count)
        for (position, uuid) in earlier.uuids.enumerated() { earlierPositions[StoryKey(uuid)] = position }
        // Where each story of the earlier crawl is now (-1 until reached), and where the stories
        // it did not reach are, by UUID.
        var placed = [Int](repeating: -1, count: current.count)
        var placedOrphans: [String: Int] = [:]
        var nodes: [LinkGraph.Node] = []
        for (position, story) in current.prefix(earlier.entryCount).enumerated() {
            placed[position] = nodes.count
            nodes.append(LinkGraph.Node(story: story, depth: 0, firstLinkedFrom: nil))
        }
        /// The position of the earlier crawl's story at `target`, which an edge from the story at
        /// `source` leads to: placed now when this is the first edge to reach it, as in the crawl.
        func place(earlier target: Int, from source: Int) -> Int {
            if placed[target] < 0 {
                placed[target] = nodes.count
                nodes.append(LinkGraph.Node(story: current[target], depth: nodes[source].depth + 1, firstLinkedFrom: nodes[source].story.uuid))
            }
            return placed[target]
        }

        var table = EdgeTable()
        table.reserveCapacity(adding: earlier.table.count, textBytes: earlier.table.text.count)
        var wasStale = [Bool](repeating: false, count: earlier.table.count)
        for edge in earlier.stale where edge < wasStale.count { wasStale[edge] = true }
        var stale: [Int] = []
        var next = 0
        while next < nodes.count {
            let first = table.count
            if let earlierPosition = earlierPositions[nodes[next].story.key], !changed.contains(earlierPosition) {
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
                    table.setTarget(ofEdge: first + edge - run.lowerBound, to: place(earlier: target, from: next), uuid: earlier.uuids[target])
                }
            } else {
                guard let edges = edges(of: nodes[next].story, at: next) else { return nil }
                table.append(contentsOf: edges.table)
                for (offset, uuid) in edges.targets.enumerated() {
                    guard let uuid else { continue }
                    let target: Int
                    if let earlierPosition = earlierPositions[StoryKey(uuid)] {
                        target = place(earlier: earlierPosition, from: next)
                    } else if let orphan = placedOrphans[uuid] {
                        target = orphan
                    } else {
                        guard let story = source.story(for: .uuid(uuid)) else { return nil }
                        target = nodes.count
                        placedOrphans[uuid] = target
                        nodes.append(LinkGraph.Node(story: story, depth: nodes[next].depth + 1, firstLinkedFrom: nodes[next].story.uuid))
                    }
                    table.setTarget(ofEdge: first + offset, to: target, uuid: uuid)
                    let story = nodes[target].story
                    if table.isStale(edgeAt: first + offset, target: { (SlugLookup.key(story.fullSlug), story.uuid) }) { stale.append(first + offset) }
                }
            }
            next += 1
        }
        let orphans = try await source.allStories()?.filter { story in
            earlierPositions[story.key].map { placed[$0] < 0 } ?? (placedOrphans[story.uuid] == nil)
        } ?? []
        return LinkGraph(stories: nodes, table: table, orphans: orphans, root: earlier.root.map { nodes[$0].story }, stale: stale, jobs: jobs)
    }

    /// The edges of `story`, at `position` in the graph, as the crawl finds them: its references
    /// resolved in ``source``, then its listing's. Nil for a reference the replay cannot
    /// resolve as the crawl would (see ``graph(replaying:current:relinked:jobs:)``).
    private func edges(of story: Story, at position: Int) -> StoryEdges? {
        let (baseURL, rootSlug) = (update.baseURL, update.rootSlug)
        let references = update.references.references(in: story, baseURL: baseURL, rootSlug: rootSlug) {
            ReferenceExtractor.references(in: story, baseURL: baseURL, rootSlug: rootSlug)
        }
        let byID = { (order: [StoryReference]) in order.contains { if case .id = $0 { true } else { false } } }
        guard !references.contains(where: { $0.embeddedStory != nil || byID($0.lookupOrder) }) else { return nil }
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
