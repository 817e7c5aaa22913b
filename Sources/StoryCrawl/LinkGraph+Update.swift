import ParallelWork
import StoryModel
import StorySource

extension LinkGraph {
    /// This graph of an earlier crawl brought up to date with `source` without crawling it
    /// again, when that is sure to give what the crawl would: every story of `source` is one of
    /// this graph's (reached or not), and each one that changed since kept what the crawl reads
    /// of its head (its `full_slug`, id and start-page folder; see ``CrawledHead``) and makes
    /// the same references as before, as `references` kept them for its earlier version. Such a
    /// change (a text edit, a new name or date, the common saves) moves no edge, so the graph is
    /// this one with the new versions in place. Nil otherwise: the source
    /// must be crawled. `baseURL` is the crawl's; the entries and collections must be too.
    public func updated(
        with source: any InMemoryStorySource, references: ReferenceCache, baseURL: String?, jobs: Int
    ) async throws -> LinkGraph? {
        let update = StoryUpdate(current: { source.story(for: .uuid($0)) }, references: references, baseURL: baseURL, rootSlug: rootSlug)
        guard let all = try await source.allStories(), all.count == stories.count + orphans.count,
              let nodes = update.currentVersions(of: stories.count, reached: true, jobs: jobs, earlier: { stories[$0].story.known }),
              let unreached = update.currentVersions(of: orphans.count, reached: false, jobs: jobs, earlier: { orphans[$0].known })
        else { return nil }
        var updated = self
        for (position, story) in nodes.enumerated() { updated.stories[position].story = story }
        updated.orphans = unreached
        if let root, let position = position(of: root.uuid) { updated.root = nodes[position] }
        return updated
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
                guard let current = update.currentVersion(of: stories[position].story.known, reached: true) else { return nil }
                updated.stories[position].story = current
                if root?.uuid == story.uuid { updated.root = current }
            } else if let position = orphans.firstIndex(where: { $0.uuid == story.uuid }) {
                guard let current = update.currentVersion(of: orphans[position].known, reached: false) else { return nil }
                updated.orphans[position] = current
            } else {
                return nil
            }
        }
        return updated
    }
}
