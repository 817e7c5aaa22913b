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
    private var byUUID: [String: Int] = [:]
    private var bySlug: [String: String] = [:]
    private var byID: [Int: String] = [:]
    private var resolutions: [StoryReference: Resolution] = [:]

    /// The loaded story with this UUID.
    subscript(uuid: String) -> Story? { byUUID[uuid].map { stories[$0] } }

    /// Records a loaded story; the first version of a UUID is kept. Returns the UUID.
    @discardableResult
    mutating func learn(_ story: Story) -> String {
        if byUUID[story.uuid] == nil {
            byUUID[story.uuid] = stories.count
            stories.append(story)
            let key = SlugLookup.key(story.fullSlug)
            if bySlug[key] == nil { bySlug[key] = story.uuid }
            if let id = story.id, byID[id] == nil { byID[id] = story.uuid }
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

    /// The UUID the first resolvable reference of `order` names, or nil.
    func target(of order: [StoryReference]) -> String? {
        for reference in order {
            if case .found(let uuid)? = resolutions[reference] { return uuid }
        }
        return nil
    }

    private func known(_ reference: StoryReference) -> String? {
        switch reference {
        case .uuid(let uuid): return byUUID[uuid] == nil ? nil : uuid
        case .slug(let slug): return bySlug[SlugLookup.key(slug)]
        case .id(let id): return byID[id]
        }
    }
}
