import ParallelWork
import StoryCrawl
import StoryModel

/// What changed in a content folder since the last build, when that was only some stories'
/// content: each kept its head (every key but `content`), no story came or went, and (the caller
/// checks) no edge moved. Then the site's pages, their places and listings are the last build's,
/// and only the pages that read the changed stories' content can differ from what it wrote
/// (``ContentReaders``).
///
/// The last build is known by the state of its content (``state(of:)``), which its page records
/// name; the earlier versions of the stories whose files were read again (from the parsed files
/// the last build kept) must give that state back, or this is not the edit from that build.
struct ContentEdit {
    /// The positions, in the graph's stories, of the stories reached whose content changed.
    let positions: [Int]
    /// The state of the content now.
    let state: String

    /// The edit that brought `graph`'s content from the state `previous`, given the earlier
    /// versions (by UUID) of the stories whose files were read again since; nil when those
    /// do not give back `previous`, or one of them has another head now. Hashes the stories on
    /// at most `jobs` threads.
    init?(graph: LinkGraph, from previous: String, earlier: [String: Story], jobs: Int) {
        // Each earlier version by its story's place: a position among the stories reached, or
        // past them among the others.
        var replaced: [Int: Story] = [:]
        var positions: [Int] = []
        for (uuid, before) in earlier {
            let place = graph.position(of: uuid) ?? graph.orphans.firstIndex { $0.uuid == uuid }.map { graph.stories.count + $0 }
            guard let place else { continue }
            let story = place < graph.stories.count ? graph.stories[place].story : graph.orphans[place - graph.stories.count]
            guard before.digest != story.digest else { continue }
            guard before.head == story.head else { return nil }
            replaced[place] = before
            if place < graph.stories.count { positions.append(place) }
        }
        let hashes = Self.storyHashes(of: graph, jobs: jobs)
        var earlierHashes = hashes
        for (place, story) in replaced { earlierHashes[place] = Self.hash(story) }
        guard Self.state(of: earlierHashes) == previous else { return nil }
        self.positions = positions.sorted()
        state = Self.state(of: hashes)
    }

    /// The state of `graph`'s content: a hash of each story's UUID and digest, those reached
    /// in order, then the others, hashed on at most `jobs` threads.
    static func state(of graph: LinkGraph, jobs: Int) -> String {
        state(of: storyHashes(of: graph, jobs: jobs))
    }

    private static func state(of storyHashes: [UInt64]) -> String {
        var state = Fingerprint()
        for hash in storyHashes { state.combine(value: hash) }
        return state.hex
    }

    /// The hash of each story's UUID and digest, by its place: the stories reached, then the others.
    private static func storyHashes(of graph: LinkGraph, jobs: Int) -> [UInt64] {
        let reached = graph.stories.count
        return ParallelWork.map(count: reached + graph.orphans.count, jobs: jobs) { place in
            hash(place < reached ? graph.stories[place].story : graph.orphans[place - reached])
        }
    }

    private static func hash(_ story: Story) -> UInt64 {
        var hash = Fingerprint()
        hash.combine(story.uuid)
        hash.combine(story.digest)
        return hash.value
    }
}
