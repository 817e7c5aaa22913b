import ParallelWork
import StoryModel
import StorySource

extension LinkGraph {
    /// This graph of an earlier crawl brought up to date with `source` without crawling it
    /// again, when that is sure to give what the crawl would: every story of `source` is one of
    /// this graph's (reached or not), and each one that changed since kept its head (slug,
    /// name, every key but `content`) and makes the same references as before, as `references`
    /// kept them for its earlier version. Such a change (a text edit, the common save) moves no
    /// edge, so the graph is this one with the new versions in place. Nil otherwise: the source
    /// must be crawled. `baseURL` is the crawl's; the entries and collections must be too.
    public func updated(
        with source: any InMemoryStorySource, references: ReferenceCache, baseURL: String?, jobs: Int
    ) async throws -> LinkGraph? {
        let update = StoryUpdate(source: source, references: references, baseURL: baseURL, rootSlug: rootSlug)
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
}
