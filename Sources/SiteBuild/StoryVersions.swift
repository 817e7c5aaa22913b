import StoryModel

/// New versions of some stories, each found by the version it replaces (its
/// ``StoryModel/Story/versionID``, cheaper to look up than a UUID): what a plan takes in from a
/// save that kept the stories' heads (``PagePlan/update(with:)``).
struct StoryVersions {
    /// The new versions, by the version each replaces.
    private let byEarlier: [ObjectIdentifier: Story]
    /// The new versions' own identities.
    private let new: Set<ObjectIdentifier>
    /// Whether every new version has its earlier version's head (every key but `content`): a
    /// graph takes a story whose name changed, a plan does not (its titles, listings, tags).
    let keptHeads: Bool

    /// The new version of each `earlier` story, `current`.
    init(_ versions: [(earlier: Story, current: Story)]) {
        byEarlier = Dictionary(versions.map { ($0.earlier.versionID, $0.current) }, uniquingKeysWith: { first, _ in first })
        new = Set(versions.map(\.current.versionID))
        keptHeads = versions.allSatisfy { $0.earlier.head == $0.current.head }
    }

    /// The new version of `story`; nil when it has none.
    func newVersion(of story: Story) -> Story? {
        byEarlier[story.versionID]
    }

    /// The new version of `story`, or `story` when it has none.
    func current(_ story: Story) -> Story {
        newVersion(of: story) ?? story
    }

    /// Puts the new versions in place in `stories`, writing only where there is one.
    func replace(in stories: inout [Story]) {
        for index in stories.indices {
            if let version = newVersion(of: stories[index]) { stories[index] = version }
        }
    }

    /// Whether `story` is one of the new versions.
    func isNew(_ story: Story) -> Bool {
        new.contains(story.versionID)
    }
}
