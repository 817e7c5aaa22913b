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

/// A story as an earlier crawl read it: what tells whether its current version could move an
/// edge (see ``StoryUpdate``).
struct KnownStory {
    var uuid: String
    /// The digest of its file; nil for a story without one, which cannot be brought up to date.
    var digest: String?
    var head: Head

    /// Its head (every key but `content`), or the print of it a ``KeptGraph`` holds.
    enum Head {
        case object(JSONObject)
        case fingerprint(String)

        /// Whether `story`, the current version, has this head.
        func matches(_ story: Story) -> Bool {
            switch self {
            case .object(let head): story.head == head
            case .fingerprint(let print): KeptGraph.headPrint(of: story) == print
            }
        }
    }
}

extension Story {
    /// This story as a graph made from it knows it.
    var known: KnownStory {
        KnownStory(uuid: uuid, digest: givenDigest, head: .object(head))
    }
}

/// Finds the current versions in a source of the stories an earlier crawl read, when none of
/// them changed in a way that could move an edge: what lets a graph be brought up to date
/// without a crawl (``LinkGraph/updated(with:references:baseURL:jobs:)``, ``KeptGraph``).
struct StoryUpdate {
    let source: any InMemoryStorySource
    let references: ReferenceCache
    let baseURL: String?
    let rootSlug: String

    /// The current versions of the `count` stories `earlier` gives, looked at on at most `jobs`
    /// threads; nil when any is gone or changed in a way that could move an edge. With
    /// `reached` (stories the crawl reached, whose references are edges), a changed story must
    /// make the references its earlier version made, and the references of those that did not
    /// change are kept in a cache that is written back, as a crawl keeps them.
    func currentVersions(of count: Int, reached: Bool, jobs: Int, earlier: (Int) -> KnownStory) -> [Story]? {
        let found = ParallelWork.map(count: count, jobs: jobs) { currentVersion(of: earlier($0), reached: reached) }
        guard !found.contains(where: { $0 == nil }) else { return nil }
        let stories = found.map { $0! }
        if reached {
            references.keep(digests: zip(0..<count, stories).compactMap { position, story in
                story.givenDigest == earlier(position).digest ? story.givenDigest : nil
            }, baseURL: baseURL, rootSlug: rootSlug)
        }
        return stories
    }

    /// The current version of `earlier`: nil when it is gone or changed in a way that could
    /// move an edge.
    private func currentVersion(of earlier: KnownStory, reached: Bool) -> Story? {
        guard let story = source.story(for: .uuid(earlier.uuid)), story.uuid == earlier.uuid,
              let digest = story.givenDigest, let earlierDigest = earlier.digest else { return nil }
        if digest == earlierDigest { return story }
        guard earlier.head.matches(story) else { return nil }
        guard reached else { return story }
        guard let before = references.kept(forDigest: earlierDigest, baseURL: baseURL, rootSlug: rootSlug) else { return nil }
        let after = references.references(in: story, baseURL: baseURL, rootSlug: rootSlug) {
            ReferenceExtractor.references(in: story, baseURL: baseURL, rootSlug: rootSlug)
        }
        return after == before ? story : nil
    }
}
