import StoryModel

/// The `full_slug` of each of a graph's stories, one after another in one buffer, read from the
/// stories once in their order. Checking two million links of 100,000 stories for a stale slug
/// read each target story's slug from the story itself, three cache misses a link; read from
/// here, a link's target costs one look into a few megabytes.
struct FullSlugs {
    private var bytes: [UInt8] = []
    /// Where each story's slug ends in ``bytes``, which is where the next one's starts.
    private var ends: [Int] = []

    init(of stories: [LinkGraph.Node]) {
        ends.reserveCapacity(stories.count)
        for node in stories {
            bytes.append(contentsOf: node.story.fullSlug.utf8)
            ends.append(bytes.count)
        }
    }

    /// Calls `body` with the UTF-8 bytes of the `full_slug` of the story at `position`.
    func withSlug<Result>(at position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let start = position == 0 ? 0 : ends[position - 1]
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<ends[position]])) }
    }
}
