import ParallelWork
import StoryModel
import StorySource

/// A story as an earlier crawl read it: what tells whether its current version could move an
/// edge (see ``StoryUpdate``).
struct KnownStory {
    var uuid: String
    /// The digest of its file; nil for a story without one, which cannot be brought up to date.
    var digest: String?
    var head: CrawledHead
}

/// What a crawl reads of a story's head (every key but `content`): the `full_slug` (which
/// references by slug resolve to, which folder lists the story, where relative links start),
/// the numeric `id` (which references by id resolve to) and the folder it is the start page of
/// (from `is_startpage` and `is_folder`: which stories it lists). Any other key of the head,
/// such as `name`, `position`, `tag_list` or the dates, moves no edge of a crawl without
/// collections: a story that changed only those keeps its place in the graph.
struct CrawledHead: Equatable {
    var fullSlug: String
    var id: Int?
    var startPageFolder: String?

    init(fullSlug: String, id: Int?, startPageFolder: String?) {
        self.fullSlug = fullSlug
        self.id = id
        self.startPageFolder = startPageFolder
    }

    init(of story: Story) {
        self.init(fullSlug: story.fullSlug, id: story.id, startPageFolder: story.startPageFolder)
    }
}

extension Story {
    /// This story as a graph made from it knows it.
    var known: KnownStory {
        KnownStory(uuid: uuid, digest: givenDigest, head: CrawledHead(of: self))
    }
}

/// Finds the current versions of the stories an earlier crawl read, when none of them changed
/// in a way that could move an edge but its own: what lets a graph be brought up to date
/// without a crawl (``LinkGraph/updated(with:references:baseURL:jobs:)``, ``KeptGraph``).
struct StoryUpdate {
    /// The current version of the story with a UUID; nil when it is gone.
    let current: @Sendable (String) -> Story?
    let references: ReferenceCache
    let baseURL: String?
    let rootSlug: String

    /// The current versions of some stories of an earlier crawl, in its order.
    struct Versions {
        var stories: [Story]
        /// The positions, in order, of the stories reached whose references changed, or whose
        /// earlier references are not known: their edges must be found again.
        var relinked: [Int]
    }

    /// The current versions of the `count` stories `earlier` gives, looked at on at most `jobs`
    /// threads; nil when any is gone or changed what the crawl reads of its head. With
    /// `reached` (stories the crawl reached, whose references are edges), the references of a
    /// changed story are compared with its earlier version's, and those of the stories that did
    /// not change are kept in a cache that is written back, as a crawl keeps them.
    func currentVersions(of count: Int, reached: Bool, jobs: Int, earlier: (Int) -> KnownStory) -> Versions? {
        let found = ParallelWork.map(count: count, jobs: jobs) { currentVersion(of: earlier($0), reached: reached) }
        guard !found.contains(where: { $0 == nil }) else { return nil }
        let versions = Versions(stories: found.map { $0!.story }, relinked: found.indices.filter { found[$0]!.relinked })
        if reached {
            references.keep(digests: zip(0..<count, versions.stories).compactMap { position, story in
                story.givenDigest == earlier(position).digest ? story.givenDigest : nil
            }, baseURL: baseURL, rootSlug: rootSlug)
        }
        return versions
    }

    /// The current version of `earlier`, and whether its references changed (only with
    /// `reached`, as ``currentVersions(of:reached:jobs:earlier:)`` says); nil when it is gone
    /// or changed what the crawl reads of its head.
    func currentVersion(of earlier: KnownStory, reached: Bool) -> (story: Story, relinked: Bool)? {
        guard let story = current(earlier.uuid), story.uuid == earlier.uuid,
              let digest = story.givenDigest, let earlierDigest = earlier.digest else { return nil }
        if digest == earlierDigest { return (story, false) }
        guard earlier.head == CrawledHead(of: story) else { return nil }
        guard reached else { return (story, false) }
        let before = references.kept(forDigest: earlierDigest, baseURL: baseURL, rootSlug: rootSlug)
        let after = references.references(in: story, baseURL: baseURL, rootSlug: rootSlug) {
            ReferenceExtractor.references(in: story, baseURL: baseURL, rootSlug: rootSlug)
        }
        return (story, after != before)
    }
}
