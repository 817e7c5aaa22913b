import StoryModel

extension StoryblokSource {
    /// The space's cache version (`cv`), read from `spaces/me` now: it changes whenever content
    /// is published, so a preview polls it to notice changes.
    public func spaceVersion() async throws -> Int {
        try await client.readSpaceVersion()
    }

    /// The stories published (drafts: saved) after `minute` (`2025-05-02 15:20`, UTC), asked
    /// for with `published_at_gt` (drafts: `updated_at_gt`), 100 per request. The API compares
    /// to the minute, so a story changed within that minute is answered too.
    public func stories(changedAfter minute: String) async throws -> [Story] {
        let name = client.configuration.version == .draft ? "updated_at_gt" : "published_at_gt"
        return try await everyPage([(name: name, value: minute)])
    }
}
