import Foundation
import StoryModel

/// The stories of one language of a space as the last crawl read them, kept in memory and
/// patched as stories change, so that `serve` rebuilds from the API as fast as from a folder:
/// only what the snapshot lacks is asked of the API.
///
/// A reference the snapshot holds is answered from it; one the API did not know is remembered
/// as missing (until a story that answers it arrives); anything else goes to the upstream
/// source, and what comes back is kept. A listing (``StoryQuery``) goes to the API the first
/// time and is answered from the snapshot afterwards, so that a changed or new story put in
/// with ``update(_:)`` joins the listings it matches.
public final class SnapshotSource: StorySource, @unchecked Sendable {
    private let lock = NSLock()
    private var upstream: any StorySource
    private var byUUID: [String: Story] = [:]
    private var bySlug: [String: String] = [:]
    private var byID: [Int: String] = [:]
    private var missing: Set<StoryReference> = []
    private var answeredQueries: Set<StoryQuery> = []
    private var failure: (any Error)?

    /// An empty snapshot that reads `upstream` for what it lacks.
    public init(upstream: any StorySource) {
        self.upstream = upstream
    }

    public var description: String { lock.withLock { upstream.description } }

    /// How many stories the snapshot holds.
    public var count: Int { lock.withLock { byUUID.count } }

    /// Every story held, in no particular order.
    public var stories: [Story] { lock.withLock { Array(byUUID.values) } }

    /// The story with `id`, when the snapshot holds it.
    public func story(id: Int) -> Story? {
        lock.withLock { byID[id].flatMap { byUUID[$0] } }
    }

    /// The last error the upstream source threw, taken once: a build that failed on it is a
    /// failure of the API, to be tried again, not of the content.
    public func takeFailure() -> (any Error)? {
        lock.withLock {
            defer { failure = nil }
            return failure
        }
    }

    /// Runs `request` against the upstream source, noting what it throws.
    private func upstreamRequest<Result>(_ request: (any StorySource) async throws -> Result) async throws -> Result {
        do {
            return try await request(lock.withLock { upstream })
        } catch {
            lock.withLock { failure = error }
            throw error
        }
    }

    /// Reads what the snapshot lacks from `upstream` from now on (a source with a newer `cv`).
    public func replaceUpstream(_ upstream: any StorySource) {
        lock.withLock { self.upstream = upstream }
    }

    /// Puts `stories` in, each replacing the story with its UUID (whose old slug then finds
    /// nothing, and is not asked for); returns those that were not held as they are.
    @discardableResult
    public func update(_ stories: [Story]) -> [Story] {
        lock.withLock {
            var changed: [Story] = []
            for story in stories where byUUID[story.uuid] != story {
                changed.append(story)
                if let old = byUUID[story.uuid] {
                    forget(old)
                    missing.insert(.slug(SlugLookup.key(old.fullSlug)))  // moved away: nothing is there now
                }
                byUUID[story.uuid] = story
                bySlug[SlugLookup.key(story.fullSlug)] = story.uuid
                if let id = story.id { byID[id] = story.uuid }
                missing.remove(.uuid(story.uuid))
                missing.remove(.slug(SlugLookup.key(story.fullSlug)))
                if let id = story.id { missing.remove(.id(id)) }
            }
            return changed
        }
    }

    /// Takes the story `uuid` out: references to it are missing from now on.
    public func remove(uuid: String) {
        lock.withLock {
            guard let story = byUUID.removeValue(forKey: uuid) else { return }
            forget(story)
            missing.insert(.uuid(uuid))
            missing.insert(.slug(SlugLookup.key(story.fullSlug)))
            if let id = story.id { missing.insert(.id(id)) }
        }
    }

    /// Drops the indexes of `story` that still point at it. Called with the lock held.
    private func forget(_ story: Story) {
        let key = SlugLookup.key(story.fullSlug)
        if bySlug[key] == story.uuid { bySlug[key] = nil }
        if let id = story.id, byID[id] == story.uuid { byID[id] = nil }
    }

    public func stories(for references: [StoryReference]) async throws -> [StoryReference: Story] {
        var found: [StoryReference: Story] = [:]
        var asked: [StoryReference] = []
        lock.withLock {
            for reference in references {
                if let story = held(reference) {
                    found[reference] = story
                } else if !missing.contains(normalized(reference)) {
                    asked.append(reference)
                }
            }
        }
        guard !asked.isEmpty else { return found }
        let fetched = try await upstreamRequest { try await $0.stories(for: asked) }
        update(Array(fetched.values))
        lock.withLock {
            for reference in asked where fetched[reference] == nil { missing.insert(normalized(reference)) }
        }
        return found.merging(fetched) { held, _ in held }
    }

    public func allStories() async throws -> [Story]? {
        try await upstreamRequest { try await $0.allStories() }
    }

    public func stories(matching query: StoryQuery) async throws -> [Story] {
        if !lock.withLock({ answeredQueries.contains(query) }) {
            let stories = try await upstreamRequest { try await $0.stories(matching: query) }
            update(stories)
            lock.withLock { _ = answeredQueries.insert(query) }
        }
        return lock.withLock {
            byUUID.values.filter(query.matches).sorted { $0.fullSlug.utf8Precedes($1.fullSlug) }
        }
    }

    /// The story `reference` names in the snapshot. Called with the lock held.
    private func held(_ reference: StoryReference) -> Story? {
        switch reference {
        case .uuid(let uuid): return byUUID[uuid]
        case .slug(let slug): return bySlug[SlugLookup.key(slug)].flatMap { byUUID[$0] }
        case .id(let id): return byID[id].flatMap { byUUID[$0] }
        }
    }

    /// `reference` with a slug reduced to its lookup key, as missing references are kept.
    private func normalized(_ reference: StoryReference) -> StoryReference {
        if case .slug(let slug) = reference { return .slug(SlugLookup.key(slug)) }
        return reference
    }
}
