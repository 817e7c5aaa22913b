/// Which pages show which stories' content, as their fingerprints read it
/// (``BuildPageFingerprints``): a save that changed only some stories' content, each keeping
/// its head and references, changes the fingerprints of these pages alone, so only they need
/// rendering again. Positions are in the link graph's ``StoryCrawl/LinkGraph/stories``, pages
/// in the plan's ``PagePlan/pages``, of one language. Stories of other languages that its pages
/// link to are not among them (see ``ServedSite/shownAcrossLanguages``).
struct ContentReaders: Sendable {
    /// For each story, the pages whose fingerprint holds its digest (its own, those that link to
    /// it or to a story that relates to it, the listings that show it), a page once or more.
    let pagesReading: [[Int32]]
    /// The stories whose digests every page's fingerprint holds: the global story's and the
    /// stories it relates to, the collections'.
    let readByEveryPage: Set<Int>

    /// The pages, in plan order, that show the content of a story at `positions`; nil when
    /// every page does.
    func pages(showingContentOf positions: [Int]) -> [Int]? {
        guard readByEveryPage.isDisjoint(with: positions) else { return nil }
        return Set(positions.flatMap { pagesReading[$0] }).map(Int.init).sorted()
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
