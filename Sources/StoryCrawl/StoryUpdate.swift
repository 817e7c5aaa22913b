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

extension Story {
    /// This story as a graph made from it knows it.
    var known: KnownStory {
        KnownStory(uuid: uuid, digest: givenDigest, head: CrawledHead(of: self))
    }
}

/// Finds the current versions of the stories an earlier crawl read, and how each changed:
/// what lets a graph be brought up to date without a crawl
/// (``LinkGraph/updated(with:references:entries:baseURL:jobs:)``, ``KeptGraph``).
struct StoryUpdate {
    /// The current version of the story with a UUID; nil when it is gone.
    let current: @Sendable (String) -> Story?
    let references: ReferenceCache
    let baseURL: String?
    let rootSlug: String

    /// The current versions of some stories of an earlier crawl, in its order.
    struct Versions {
        /// Each story's current version; nil for one that is gone.
        var stories: [Story?]
        /// The positions, in order, of the stories reached whose references changed, or whose
        /// earlier references are not known: their edges must be found again.
        var relinked: [Int]
        /// The positions, in order, of the stories that are gone or changed what the crawl
        /// reads of their heads (or cannot be told unchanged): references may resolve
        /// elsewhere, and listings list other stories.
        var moved: [Int]
    }

    /// One story's current version (nil when it is gone), and how it changed.
    struct Found {
        var story: Story?
        var relinked = false
        var moved = false
        /// The digest of the earlier version's file, when the story is gone or its file changed.
        var earlierDigest: String?
    }

    /// How the stories of a source stand against an earlier crawl's.
    struct SourceChanges {
        /// The stories the crawl reached, and those it did not.
        var reached: Versions
        var unreached: Versions
        /// The stories the earlier crawl did not know.
        var added: [Story]
        /// What the earlier crawl read of the heads of the stories ``Versions/moved``, reached or not.
        var departed: [CrawledHead]

        /// Whether every story the earlier crawl knew is there, each with the head and
        /// references it had, and no other: then no edge moved.
        var movesNoEdge: Bool { reached.moved.isEmpty && unreached.moved.isEmpty && added.isEmpty && reached.relinked.isEmpty }

        /// The current versions of the stories moved (reached or not) that are still there,
        /// and the stories added: where references may now resolve.
        var arrived: [Story] {
            (reached.moved.compactMap { reached.stories[$0] } + unreached.moved.compactMap { unreached.stories[$0] }) + added
        }
    }

    /// How `all`, the stories of a source, stand against an earlier crawl that reached the
    /// `reachedCount` stories `reached` gives and not the `unreachedCount` stories `unreached`
    /// gives, each looked at on at most `jobs` threads (see ``currentVersions(of:reached:jobs:earlier:)``).
    func changes(
        of all: [Story], reached reachedCount: Int, _ reached: (Int) -> KnownStory, unreached unreachedCount: Int,
        _ unreached: (Int) -> KnownStory, jobs: Int
    ) -> SourceChanges {
        let reachedVersions = currentVersions(of: reachedCount, reached: true, jobs: jobs, earlier: reached)
        let unreachedVersions = currentVersions(of: unreachedCount, reached: false, jobs: jobs, earlier: unreached)
        let departed = reachedVersions.moved.map { reached($0).head } + unreachedVersions.moved.map { unreached($0).head }
        let gone = reachedVersions.stories.count { $0 == nil } + unreachedVersions.stories.count { $0 == nil }
        // UUIDs are unique among a source's stories: with every earlier story there, none is new.
        var added: [Story] = []
        if all.count != reachedCount + unreachedCount - gone {
            var known = StoryPositions(minimumCapacity: reachedCount + unreachedCount)
            for position in 0..<reachedCount { known[StoryKey(reached(position).uuid)] = position }
            for position in 0..<unreachedCount { known[StoryKey(unreached(position).uuid)] = position }
            added = all.filter { known[$0.key] == nil }
        }
        return SourceChanges(reached: reachedVersions, unreached: unreachedVersions, added: added, departed: departed)
    }

    /// The current versions of the `count` stories `earlier` gives, looked at on at most `jobs`
    /// threads. With `reached` (stories the crawl reached, whose references are edges), the
    /// references of a changed story are compared with its earlier version's, and those of the
    /// stories that did not change are kept in a cache that is written back, as a crawl keeps them.
    func currentVersions(of count: Int, reached: Bool, jobs: Int, earlier: (Int) -> KnownStory) -> Versions {
        let found = ParallelWork.map(count: count, jobs: jobs) { currentVersion(of: earlier($0), reached: reached) }
        let versions = Versions(
            stories: found.map(\.story), relinked: found.indices.filter { found[$0].relinked }, moved: found.indices.filter { found[$0].moved })
        if reached {
            references.keepAll(except: found.compactMap(\.earlierDigest), baseURL: baseURL, rootSlug: rootSlug)
        }
        return versions
    }

    /// The current version of `earlier`, and how it changed (whether its references did only
    /// with `reached`, as ``currentVersions(of:reached:jobs:earlier:)`` says).
    func currentVersion(of earlier: KnownStory, reached: Bool) -> Found {
        guard let story = current(earlier.uuid), story.uuid == earlier.uuid else {
            return Found(story: nil, moved: true, earlierDigest: earlier.digest)
        }
        guard let digest = story.givenDigest, let earlierDigest = earlier.digest else {
            return Found(story: story, moved: true, earlierDigest: earlier.digest)
        }
        if digest == earlierDigest { return Found(story: story) }
        guard earlier.head == CrawledHead(of: story) else { return Found(story: story, moved: true, earlierDigest: earlierDigest) }
        guard reached else { return Found(story: story, earlierDigest: earlierDigest) }
        let before = references.kept(forDigest: earlierDigest, baseURL: baseURL, rootSlug: rootSlug)
        return Found(story: story, relinked: self.references(in: story) != before, earlierDigest: earlierDigest)
    }

    /// The references in `story`, as the crawl finds them: kept for its digest, or extracted
    /// and kept.
    func references(in story: Story) -> [ExtractedReference] {
        references.references(in: story, baseURL: baseURL, rootSlug: rootSlug) {
            ReferenceExtractor.references(in: story, baseURL: baseURL, rootSlug: rootSlug)
        }
    }
}
