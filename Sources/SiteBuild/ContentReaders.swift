import StoryModel

/// Which pages show which stories' content, as their fingerprints read it
/// (``BuildPageFingerprints``): a change to some stories' content alone, each keeping its head
/// and references, changes the fingerprints of these pages alone, so only they need rendering
/// again. Positions are in the link graph's ``StoryCrawl/LinkGraph/stories``, pages in the
/// plan's ``PagePlan/pages``, of one language. Stories of other languages that its pages link
/// to are not among them (see ``ServedSite/shownAcrossLanguages``).
///
/// Held flat, page after page, as the fingerprints noted them: a build notes them for every
/// page, and a rebuild asks about a story or two.
struct ContentReaders: Sendable, Equatable {
    /// Where each page's positions start in ``positions``, in plan order, and where the last
    /// page's end.
    let starts: [Int32]
    /// The positions of the stories whose digests each page's fingerprint holds (its own, those
    /// it links to or that relate to them, those it lists), a story once or more.
    let positions: [Int32]
    /// The positions of the stories whose digests every page's fingerprint holds: the global
    /// story's and the stories it relates to, the collections'; in order, each once.
    let readByEveryPage: [Int32]

    /// Readers from the positions each page read, in plan order, and those `readByEveryPage`.
    init(pages: [[Int32]], readByEveryPage: Set<Int>) {
        var starts: [Int32] = [0]
        starts.reserveCapacity(pages.count + 1)
        var positions: [Int32] = []
        positions.reserveCapacity(pages.reduce(0) { $0 + $1.count })
        for read in pages {
            positions += read
            starts.append(Int32(positions.count))
        }
        self.init(starts: starts, positions: positions, readByEveryPage: readByEveryPage.map(Int32.init).sorted())
    }

    init(starts: [Int32], positions: [Int32], readByEveryPage: [Int32]) {
        self.starts = starts
        self.positions = positions
        self.readByEveryPage = readByEveryPage
    }

    /// How many pages the readers are of.
    var pageCount: Int { starts.count - 1 }

    /// The pages, in plan order, that show the content of a story at `changed`, positions
    /// among `storyCount` stories; nil when every page does.
    func pages(showingContentOf changed: [Int], storyCount: Int) -> [Int]? {
        var isChanged = [Bool](repeating: false, count: storyCount)
        for position in changed { isChanged[position] = true }
        guard !readByEveryPage.contains(where: { isChanged[Int($0)] }) else { return nil }
        return (0..<pageCount).filter { page in
            positions[Int(starts[page])..<Int(starts[page + 1])].contains { isChanged[Int($0)] }
        }
    }

    /// Writes the readers: three arrays as they are in memory.
    func write(into writer: inout ByteRecordWriter) {
        writer.number(pageCount)
        writer.numbers(starts)
        writer.number(positions.count)
        writer.numbers(positions)
        writer.number(readByEveryPage.count)
        writer.numbers(readByEveryPage)
    }

    /// The readers ``write(into:)`` wrote, of a graph of `storyCount` stories; nil when
    /// unreadable, or when a page's positions run backwards or a position is past the stories.
    init?(from reader: inout ByteRecordReader, storyCount: Int) {
        guard let pageCount = reader.count(), let starts: [Int32] = reader.numbers(count: pageCount + 1),
              let positionCount = reader.count(), let positions: [Int32] = reader.numbers(count: positionCount),
              let everyCount = reader.count(), let every: [Int32] = reader.numbers(count: everyCount),
              starts.first == 0, starts.last == Int32(exactly: positionCount),
              zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }),
              positions.allSatisfy({ $0 >= 0 && $0 < storyCount }), every.allSatisfy({ $0 >= 0 && $0 < storyCount })
        else { return nil }
        self.init(starts: starts, positions: positions, readByEveryPage: every)
    }
}

/// The positions of the stories whose digests one fingerprint has read, noted only when asked
/// for: a plain build does not pay for them.
struct ContentReads {
    private(set) var positions: [Int32] = []
    private let isNoting: Bool

    init(noting: Bool) {
        isNoting = noting
    }

    /// Notes that the digest of the story at `position` was read.
    mutating func note(_ position: Int?) {
        if isNoting, let position { positions.append(Int32(position)) }
    }

    /// Notes that a story's shown content was read: `digests`, the positions of the stories
    /// whose digests it was hashed from.
    mutating func note(shown digests: [Int32]?) {
        if isNoting, let digests { positions += digests }
    }
}
