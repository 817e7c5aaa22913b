import ParallelWork
import StoryModel
import StorySource

extension LinkGraph {
    /// A graph brought up to date without a crawl (``updated(with:references:baseURL:jobs:)``,
    /// ``KeptGraph/updated(with:references:jobs:)``).
    public struct Update: Sendable {
        public var graph: LinkGraph
        /// Whether the graph has the earlier graph's stories, edges and orphans in its order,
        /// their versions aside: then no edge moved, and a kept graph's file needs only the
        /// new digests (``KeptGraph/encoded(updatedTo:)``).
        public var keepsEdges: Bool
    }

    /// This graph of an earlier crawl brought up to date with `source` without crawling it
    /// again, when every story of `source` is one of this graph's (reached or not) and each one
    /// that changed since kept what the crawl reads of its head (its `full_slug`, id and
    /// start-page folder; see ``CrawledHead``). When each changed story makes the same
    /// references as before (as `references` kept them for its earlier version), as a text
    /// edit or a new name does, no edge moves: the graph is this one with the new versions in
    /// place. Otherwise the crawl is replayed over this graph's edges, finding again only those
    /// of the stories whose references changed (see ``CrawlReplay``). Nil when neither is sure
    /// to give what the crawl would: the source must be crawled. `baseURL` is the crawl's; the
    /// entries and collections must be too.
    public func updated(
        with source: LocalFolderSource, references: ReferenceCache, baseURL: String?, jobs: Int
    ) async throws -> Update? {
        let update = StoryUpdate(current: { source.story(for: .uuid($0)) }, references: references, baseURL: baseURL, rootSlug: rootSlug)
        guard let all = try await source.allStories(), all.count == stories.count + orphans.count,
              let nodes = update.currentVersions(of: stories.count, reached: true, jobs: jobs, earlier: { stories[$0].story.known }),
              let unreached = update.currentVersions(of: orphans.count, reached: false, jobs: jobs, earlier: { orphans[$0].known })
        else { return nil }
        guard nodes.relinked.isEmpty else {
            let earlier = CrawlReplay.Earlier(
                uuids: stories.map(\.story.uuid), entryCount: stories.prefix { $0.depth == 0 }.count,
                root: root.flatMap { position(of: $0.uuid) }, table: table, stale: stalePositions)
            return try await CrawlReplay(source: source, update: update)
                .graph(replaying: earlier, current: nodes.stories, relinked: nodes.relinked, jobs: jobs)
                .map { Update(graph: $0, keepsEdges: false) }
        }
        var updated = self
        for (position, story) in nodes.stories.enumerated() { updated.stories[position].story = story }
        updated.orphans = unreached.stories
        if let root, let position = position(of: root.uuid) { updated.root = nodes.stories[position] }
        return Update(graph: updated, keepsEdges: true)
    }

    /// This graph with `changed`, new versions of some of its stories (reached or not), in place
    /// of the earlier ones, when each kept what the crawl reads of its head and makes the references its earlier
    /// version made (as `references` kept them): what a save that edited only their content
    /// gives. Nil when any is not one of this graph's stories or changed in a way that could
    /// move an edge: the source must be crawled. `baseURL` is the crawl's. Unlike
    /// ``updated(with:references:baseURL:jobs:)``, this looks at the changed stories alone; the
    /// one cost per story is a copy of the list of stories.
    public func updated(changing changed: [Story], references: ReferenceCache, baseURL: String?) -> LinkGraph? {
        let versions = Dictionary(changed.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        guard versions.count == changed.count else { return nil }
        let update = StoryUpdate(current: { versions[$0] }, references: references, baseURL: baseURL, rootSlug: rootSlug)
        var updated = self
        for story in changed {
            if let position = position(of: story.uuid) {
                guard let current = update.currentVersion(of: stories[position].story.known, reached: true), !current.relinked else { return nil }
                updated.stories[position].story = current.story
                if root?.uuid == story.uuid { updated.root = current.story }
            } else if let position = orphans.firstIndex(where: { $0.uuid == story.uuid }) {
                guard let current = update.currentVersion(of: orphans[position].known, reached: false) else { return nil }
                updated.orphans[position] = current.story
            } else {
                return nil
            }
        }
        return updated
    }
}
