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
        guard let all = try await source.allStories(), all.count == stories.count + orphans.count else { return nil }
        let rootSlug = self.rootSlug
        /// The current version of `earlier`: nil when it is gone or changed in a way that could
        /// move an edge; itself when unchanged. With `reached`, its references must be the same.
        func current(of earlier: Story, reached: Bool) -> Story? {
            guard let story = source.story(for: .uuid(earlier.uuid)), story.uuid == earlier.uuid,
                  let digest = story.givenDigest, let earlierDigest = earlier.givenDigest else { return nil }
            if digest == earlierDigest { return earlier }
            guard story.head == earlier.head else { return nil }
            guard reached else { return story }
            guard let before = references.kept(forDigest: earlierDigest, baseURL: baseURL, rootSlug: rootSlug) else { return nil }
            let after = references.references(in: story, baseURL: baseURL, rootSlug: rootSlug) {
                ReferenceExtractor.references(in: story, baseURL: baseURL, rootSlug: rootSlug)
            }
            return after == before ? story : nil
        }
        let nodes = ParallelWork.map(count: stories.count, jobs: jobs) { current(of: stories[$0].story, reached: true) }
        let unreached = ParallelWork.map(count: orphans.count, jobs: jobs) { current(of: orphans[$0], reached: false) }
        guard !nodes.contains(where: { $0 == nil }), !unreached.contains(where: { $0 == nil }) else { return nil }
        var updated = self
        for (position, story) in nodes.enumerated() { updated.stories[position].story = story! }
        updated.orphans = unreached.map { $0! }
        if let root, let position = position(of: root.uuid) { updated.root = nodes[position] }
        return updated
    }
}
