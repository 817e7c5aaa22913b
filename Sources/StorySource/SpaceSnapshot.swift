import Foundation
import StoryModel

/// A Storyblok space as `serve` keeps it between builds: one ``SnapshotSource`` per language,
/// the space's cache version (`cv`) they reflect, and the ways to bring them up to date by
/// fetching only what changed: stories by id (a webhook, the Visual Editor), or every story
/// published since the newest one held (a new `cv`).
///
/// Refreshes are meant to run one at a time (serve runs them between builds); reading the
/// current `cv` may happen at any time.
public final class SpaceSnapshot: @unchecked Sendable {
    /// What a refresh changed.
    public struct Changes: Sendable {
        /// The stories fetched that differ from those held, as they are now (in the default
        /// language).
        public var updated: [Story] = []
        /// The stories taken out: deleted, or unpublished for published content.
        public var removed: [Story] = []
        /// Ids asked for that the API does not know and the snapshot never held.
        public var unknownIDs: [Int] = []

        /// Whether stories changed in another language than the default.
        public var otherLanguagesChanged = false

        public init() {}

        /// Whether the snapshot is as it was.
        public var isEmpty: Bool { updated.isEmpty && removed.isEmpty && !otherLanguagesChanged }
    }

    /// How the space is reached.
    public let configuration: StoryblokConfiguration
    private let lock = NSLock()
    private var sources: [String: SnapshotSource] = [:]
    private var knownVersion: Int?

    public init(configuration: StoryblokConfiguration) {
        self.configuration = configuration
    }

    /// `the Storyblok space at …`, as its sources name it.
    public var description: String { StoryblokSource(configuration: configuration).description }

    /// The `cv` the snapshot reflects; nil before ``reset()``.
    public var version: Int? { lock.withLock { knownVersion } }

    /// The snapshot of `language` (nil: the default), empty until a crawl reads it.
    public func source(language: String?) -> SnapshotSource {
        lock.withLock {
            let key = language ?? ""
            if let source = sources[key] { return source }
            let source = SnapshotSource(upstream: upstream(language: language, cacheVersion: knownVersion))
            sources[key] = source
            return source
        }
    }

    /// The last error the API gave a build reading the snapshot, taken once (see
    /// ``SnapshotSource/takeFailure()``).
    public func takeFailure() -> (any Error)? {
        let all = lock.withLock { Array(sources.values) }
        return all.compactMap { $0.takeFailure() }.first
    }

    /// The space's `cv` now, from `spaces/me`.
    public func currentVersion() async throws -> Int {
        try await StoryblokSource(configuration: configuration).spaceVersion()
    }

    /// Empties the snapshot and notes the space's `cv`: the next crawl reads every story.
    public func reset() async throws {
        let version = try await currentVersion()
        lock.withLock {
            knownVersion = version
            sources = [:]
        }
    }

    /// Fetches the stories `ids` afresh in every language, at the space's current `cv`: each
    /// the API answers replaces the one held; each it does not know is taken out (deleted, or
    /// unpublished) or, when never held, reported in ``Changes/unknownIDs``.
    public func refresh(ids: [Int]) async throws -> Changes {
        let ids = Array(Set(ids)).sorted()
        let languages = try await renewedSources()
        var changes = Changes()
        for (language, (snapshot, upstream)) in languages {
            let found = try await upstream.stories(for: ids.map(StoryReference.id))
            let isDefault = language.isEmpty
            for id in ids {
                if let story = found[.id(id)] {
                    let changed = snapshot.update([story])
                    if isDefault { changes.updated += changed } else if !changed.isEmpty { changes.otherLanguagesChanged = true }
                } else if let held = snapshot.story(id: id) {
                    snapshot.remove(uuid: held.uuid)
                    if isDefault { changes.removed.append(held) } else { changes.otherLanguagesChanged = true }
                } else if isDefault {
                    changes.unknownIDs.append(id)
                }
            }
        }
        return changes
    }

    /// Fetches every story changed since the newest one held (`published_at`, drafts
    /// `updated_at`), in every language, at the space's current `cv`. Stories deleted or
    /// unpublished are not among them: a webhook tells of those. A snapshot without
    /// timestamps is emptied instead, so the next crawl reads everything.
    public func refreshChanged() async throws -> Changes {
        guard let minute = newestChange() else {
            try await reset()
            return Changes()
        }
        var changes = Changes()
        for (language, (snapshot, upstream)) in try await renewedSources() {
            let changed = snapshot.update(try await upstream.stories(changedAfter: minute))
            if language.isEmpty { changes.updated = changed } else if !changed.isEmpty { changes.otherLanguagesChanged = true }
        }
        return changes
    }

    /// Reads the current `cv` (for published content: drafts are read without one) and gives
    /// every language's snapshot a new upstream source that sends it; returns them by language
    /// code (`""` the default).
    private func renewedSources() async throws -> [(String, (SnapshotSource, StoryblokSource))] {
        let version = configuration.version == .published ? try await currentVersion() : nil
        return lock.withLock {
            if let version { knownVersion = version }
            if sources[""] == nil { sources[""] = SnapshotSource(upstream: upstream(language: nil, cacheVersion: version)) }
            return sources.keys.sorted().map { key in
                let fresh = upstream(language: key.isEmpty ? nil : key, cacheVersion: version)
                sources[key]!.replaceUpstream(fresh)
                return (key, (sources[key]!, fresh))
            }
        }
    }

    /// The minute (`2025-05-02 15:20`) of the newest change among the default language's
    /// stories; nil when none has a timestamp.
    private func newestChange() -> String? {
        let snapshot = lock.withLock { sources[""] }
        let field = configuration.version == .draft ? "updated_at" : "published_at"
        let newest = snapshot?.stories.compactMap { $0.string(field) ?? $0.string("published_at") }.max()
        guard let newest, newest.count >= 16 else { return nil }
        return String(newest.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }

    private func upstream(language: String?, cacheVersion: Int?) -> StoryblokSource {
        var configuration = configuration
        if let language { configuration.language = language }
        return StoryblokSource(configuration: configuration, cacheVersion: configuration.version == .published ? cacheVersion : nil)
    }
}
