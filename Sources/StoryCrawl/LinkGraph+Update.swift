import StoryModel
import StorySource

extension LinkGraph {
    /// A graph brought up to date without a crawl (``updated(with:references:entries:baseURL:jobs:)``,
    /// ``KeptGraph/updated(with:references:jobs:)``).
    public struct Update: Sendable {
        public var graph: LinkGraph
        /// Whether the graph has the earlier graph's stories, edges and orphans in its order,
        /// their versions aside: then no edge moved, and a kept graph's file needs only the
        /// new digests (``KeptGraph/encoded(updatedTo:)``).
        public var keepsEdges: Bool
    }

    /// This graph of an earlier crawl from `entries` brought up to date with `source` without
    /// crawling it again. When every story of `source` is one of this graph's (reached or not),
    /// each with what the crawl reads of its head (its `full_slug`, id and start-page folder; see
    /// ``CrawledHead``) and the references it made before (as `references` kept them for its
    /// earlier version), as after a text edit or a new name, no edge moves: the graph is this one
    /// with the new versions in place. Otherwise the crawl is replayed over this graph's edges,
    /// finding again only those that may have moved (see ``CrawlReplay``). Nil when neither is
    /// sure to give what the crawl would: the source must be crawled. `baseURL` is the crawl's;
    /// its collections must be too.
    public func updated(
        with source: LocalFolderSource, references: ReferenceCache, entries: [String], baseURL: String?, jobs: Int
    ) async throws -> Update? {
        let update = StoryUpdate(current: { source.story(for: .uuid($0)) }, references: references, baseURL: baseURL, rootSlug: rootSlug)
        guard let all = try await source.allStories() else { return nil }
        let changes = update.changes(
            of: all, reached: stories.count, { stories[$0].story.known }, unreached: orphans.count, { orphans[$0].known }, jobs: jobs)
        guard changes.movesNoEdge else {
            let earlier = CrawlReplay.Earlier(
                entries: entries, uuids: stories.map(\.story.uuid), entryCount: stories.prefix { $0.depth == 0 }.count,
                root: root.flatMap { position(of: $0.uuid) }, table: table, stale: stalePositions)
            return try await CrawlReplay(source: source, update: update).graph(replaying: earlier, changes: changes, jobs: jobs)
                .map { Update(graph: $0, keepsEdges: false) }
        }
        var updated = self
        for (position, story) in changes.reached.stories.enumerated() { updated.stories[position].story = story! }
        updated.orphans = changes.unreached.stories.map { $0! }
        if let root, let position = position(of: root.uuid) { updated.root = changes.reached.stories[position] }
        return Update(graph: updated, keepsEdges: true)
    }

    /// This graph with `changed`, new versions of some of its stories (reached or not), in place
    /// of the earlier ones, when each kept what the crawl reads of its head and makes the
    /// references its earlier version made (as `references` kept them): what a save that edited
    /// only their content or name gives. Nil when any is not one of this graph's stories or
    /// changed in a way that could move an edge: the site must be built, which brings the graph
    /// up to date with ``updated(with:references:entries:baseURL:jobs:)``. `baseURL` is the
    /// crawl's. Unlike that, this looks at the changed stories alone; the one cost per story is a
    /// copy of the list of stories.
    public func updated(changing changed: [Story], references: ReferenceCache, baseURL: String?) -> LinkGraph? {
        let versions = Dictionary(changed.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        guard versions.count == changed.count else { return nil }
        let update = StoryUpdate(current: { versions[$0] }, references: references, baseURL: baseURL, rootSlug: rootSlug)
        var updated = self
        for story in changed {
            if let position = position(of: story.uuid) {
                let current = update.currentVersion(of: stories[position].story.known, reached: true)
                guard let story = current.story, !current.relinked, !current.moved else { return nil }
                updated.stories[position].story = story
                if root?.uuid == story.uuid { updated.root = story }
            } else if let position = orphans.firstIndex(where: { $0.uuid == story.uuid }) {
                let current = update.currentVersion(of: orphans[position].known, reached: false)
                guard let story = current.story, !current.moved else { return nil }
                updated.orphans[position] = story
            } else {
                return nil
            }
        }
        return updated
    }
}
