import StoryModel

/// Where stories come from: a local folder or a content API. The crawler asks for stories in
/// batches (one BFS level at a time) and never knows which kind of source it has. Its
/// `description` names it in messages (`Content/`, or the API's host).
public protocol StorySource: Sendable, CustomStringConvertible {
    /// Finds the stories for a batch of references (UUIDs, slugs, numeric ids). The result maps
    /// each reference that was found to its story; references not found are absent. A slug
    /// reference is matched with ``SlugLookup/key(_:)``, so `blog` finds the start page `blog/`.
    func stories(for references: [StoryReference]) async throws -> [StoryReference: Story]

    /// Every story the source holds, in a stable order, for finding orphans; nil when the source
    /// cannot list its stories cheaply (a content API may not).
    func allStories() async throws -> [Story]?

    /// Every story that answers `query` (the members of a folder, for listings and
    /// collections), in `full_slug` order (by UTF-8 bytes), each story once.
    func stories(matching query: StoryQuery) async throws -> [Story]
}

/// A source that holds every story in memory and answers a lookup at once, from any thread. The
/// crawler resolves such a source's references on all its threads, instead of one batch per
/// level.
public protocol InMemoryStorySource: StorySource {
    /// The story `reference` names, as ``StorySource/stories(for:)`` would find it; nil when none.
    func story(for reference: StoryReference) -> Story?

    /// The stories answering `query`, as ``StorySource/stories(matching:)`` finds them.
    func stories(answering query: StoryQuery) -> [Story]
}

extension InMemoryStorySource {
    public func stories(matching query: StoryQuery) async throws -> [Story] {
        stories(answering: query)
    }
}
