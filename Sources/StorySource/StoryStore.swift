import Foundation
import StoryModel

/// The stories an API source has received so far, indexed by UUID, slug key and id, so that
/// a story that arrived once (asked for, or resolved in a response's `rels` or `links`) is
/// never fetched again. The first version of a UUID is kept.
final class StoryStore: @unchecked Sendable {
    private let lock = NSLock()
    private var byUUID: [String: Story] = [:]
    private var bySlug: [String: String] = [:]
    private var byID: [Int: String] = [:]

    func learn(_ stories: [Story]) {
        lock.lock()
        defer { lock.unlock() }
        for story in stories where byUUID[story.uuid] == nil {
            byUUID[story.uuid] = story
            let key = SlugLookup.key(story.fullSlug)
            bySlug.insertIfAbsent(story.uuid, forKey: key)
            if let id = story.id { byID.insertIfAbsent(story.uuid, forKey: id) }
        }
    }

    func story(for reference: StoryReference) -> Story? {
        lock.lock()
        defer { lock.unlock() }
        switch reference {
        case .uuid(let uuid): return byUUID[uuid]
        case .slug(let slug): return bySlug[SlugLookup.key(slug)].flatMap { byUUID[$0] }
        case .id(let id): return byID[id].flatMap { byUUID[$0] }
        }
    }
}
