import StoryModel
import StorySource

/// The stories a crawl has loaded so far and how each reference resolved, so that nothing is
/// fetched twice: a reference already answered, or naming a story already loaded (by UUID,
/// slug or id), never goes back to the source.
struct StoryCatalog {
    private enum Resolution {
        case found(String)
        case missing
    }

    private var stories: [Story] = []
    private var byUUID = StoryPositions()
    private var bySlug: [String: String] = [:]
    private var byID: [Int: String] = [:]
    private var resolutions: [StoryReference: Resolution] = [:]

    /// The loaded story with this UUID.
    subscript(uuid: StoryKey) -> Story? { byUUID[uuid].map { stories[$0] } }

    /// Makes room for `count` more stories, so that learning a folder's listing of a hundred
    /// thousand stories does not grow every table a dozen times over.
    mutating func reserveCapacity(adding count: Int) {
        stories.reserveCapacity(stories.count + count)
        byUUID.reserveCapacity(stories.count + count)
        bySlug.reserveCapacity(bySlug.count + count)
        byID.reserveCapacity(byID.count + count)
    }

    /// Records a loaded story; the first version of a UUID is kept. Returns the UUID.
    @discardableResult
    mutating func learn(_ story: Story) -> String {
        if byUUID[story.key] == nil {
            byUUID[story.key] = stories.count
            stories.append(story)
            let key = SlugLookup.key(story.fullSlug)
            bySlug.insertIfAbsent(story.uuid, forKey: key)
            if let id = story.id { byID.insertIfAbsent(story.uuid, forKey: id) }
        }
        return story.uuid
    }

    /// Resolves each lookup order (see ``StoryLink/lookupOrder``): first what is already known,
    /// then the source, one batch per fallback round, each reference asked at most once. Only
    /// orders still unresolved go on to the next round, so the usual case (a UUID that is found)
    /// costs one lookup.
    mutating func resolve(_ orders: [[StoryReference]], from source: any StorySource) async throws {
        var pending = Array(orders.indices)
        var round = 0
        while !pending.isEmpty {
            var batch: [StoryReference] = []
            var inBatch: Set<StoryReference> = []
            var unresolved: [Int] = []
            for index in pending where round < orders[index].count {
                let reference = orders[index][round]
                switch resolutions[reference] {
                case .found?:
                    continue
                case .missing?:
                    unresolved.append(index)
                case nil:
                    if let uuid = known(reference) {
                        resolutions[reference] = .found(uuid)
                        continue
                    }
                    if inBatch.insert(reference).inserted { batch.append(reference) }
                    unresolved.append(index)
                }
            }
            if !batch.isEmpty {
                let found = try await source.stories(for: batch)
                for reference in batch {
                    resolutions[reference] = found[reference].map { .found(learn($0)) } ?? .missing
                }
            }
            // Orders whose reference of this round the source just found are done.
            pending = unresolved.filter { index in
                guard inBatch.contains(orders[index][round]), case .found? = resolutions[orders[index][round]] else { return true }
                return false
            }
            round += 1
        }
    }

    /// What `order` resolves to, as ``resolve(_:from:)`` would find it, from what is known and
    /// then from `source` at once, recording nothing: the UUID, the story when it came from the
    /// source, and the references tried that name nothing (see ``learn(_:missing:)``).
    func resolve<Source: InMemoryStorySource>(
        _ order: [StoryReference], in source: Source
    ) -> (uuid: String?, fetched: Story?, missing: [StoryReference]) {
        var missing: [StoryReference] = []
        for reference in order {
            // A UUID of a story loaded already, as `known` finds it below, without hashing the
            // reference's string for `resolutions`: most links of a crawl lead to such a story.
            if case .uuid(let uuid) = reference, byUUID[StoryKey(uuid)] != nil { return (uuid, nil, missing) }
            switch resolutions[reference] {
            case .found(let uuid)?:
                return (uuid, nil, missing)
            case .missing?:
                continue
            case nil:
                if let uuid = known(reference) { return (uuid, nil, missing) }
                if let story = source.story(for: reference) { return (story.uuid, story, missing) }
                missing.append(reference)
            }
        }
        return (nil, nil, missing)
    }

    /// Records what ``resolve(_:in:)`` found: the stories fetched, and the references that name
    /// nothing, which are never asked again.
    mutating func learn(_ fetched: [Story], missing: [StoryReference]) {
        for story in fetched { learn(story) }
        for reference in missing where resolutions[reference] == nil { resolutions[reference] = .missing }
    }

    /// The UUID the first resolvable reference of `order` names, or nil.
    func target(of order: [StoryReference]) -> String? {
        for reference in order {
            if case .found(let uuid)? = resolutions[reference] { return uuid }
        }
        return nil
    }

    private func known(_ reference: StoryReference) -> String? {
        switch reference {
        case .uuid(let uuid): return byUUID[StoryKey(uuid)] == nil ? nil : uuid
        case .slug(let slug): return bySlug[SlugLookup.key(slug)]
        case .id(let id): return byID[id]
        }
    }
}
