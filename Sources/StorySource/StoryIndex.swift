import StoryModel

/// The stories of a folder indexed by uuid, slug key and numeric id, with the duplicates found
/// while indexing. Files are taken in path order, so the first file keeps a duplicated key and
/// the later one is reported.
struct StoryIndex: Sendable {
    private(set) var stories: [Story] = []
    private(set) var problems: [SourceProblem] = []
    /// Whether two stories have the same numeric id (the first one keeps it, see ``add(_:)``).
    private(set) var repeatsIDs = false
    private var byUUID = StoryPositions()
    private var bySlug: [String: Int] = [:]
    private var byID: [Int: Int] = [:]
    private var origins: [StoryOrigin] = []
    /// Positions in ``stories``, sorted by `full_slug` bytes: a folder's stories are a range.
    private var slugOrder: [Int] = []

    init(_ files: [StoryFile]) {
        let count = files.reduce(0) { $0 + $1.stories.count }
        stories.reserveCapacity(count)
        origins.reserveCapacity(count)
        byUUID.reserveCapacity(count)
        bySlug.reserveCapacity(count)
        for file in files {
            problems += file.problems
            for entry in file.stories { addPrimary(entry) }
        }
        // Related stories from API responses fill gaps only, without duplicate errors.
        for file in files {
            for entry in file.related
            where byUUID[entry.story.key] == nil && bySlug[SlugLookup.key(entry.story.fullSlug)] == nil {
                add(entry)
            }
        }
        slugOrder = ByteOrder.order(of: stories.map(\.fullSlug))
    }

    /// The stories answering `query`, in `full_slug` order: the range of ``slugOrder`` that
    /// starts with the folder, found by binary search, then filtered by tag.
    func stories(answering query: StoryQuery) -> [Story] {
        let prefix = Array(query.folder.utf8)
        var low = 0, high = slugOrder.count
        while low < high {
            let middle = (low + high) / 2
            if stories[slugOrder[middle]].fullSlug.utf8.lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
        }
        var found: [Story] = []
        for position in slugOrder[low...] {
            let story = stories[position]
            guard story.fullSlug.utf8.starts(with: prefix) else { break }
            if query.matches(story) { found.append(story) }
        }
        return found
    }

    func story(for reference: StoryReference) -> Story? {
        let position: Int?
        switch reference {
        case .uuid(let uuid): position = byUUID[StoryKey(uuid)]
        case .slug(let slug): position = bySlug[SlugLookup.key(slug)]
        case .id(let id): position = byID[id]
        }
        return position.map { stories[$0] }
    }

    /// The same index over `replacements`, one for each of ``stories`` in its order with the
    /// same `uuid`, `full_slug` and `id` (the story in another language), so every key, the
    /// slug order and the origins still hold.
    func replacingStories(with replacements: [Story]) -> StoryIndex {
        precondition(replacements.count == stories.count, "one replacement per story")
        var index = self
        index.stories = replacements
        return index
    }

    func origin(of uuid: String) -> StoryOrigin? {
        byUUID[StoryKey(uuid)].map { origins[$0] }
    }

    /// How many of the stories were read from the file shown as `file` (its own story, list
    /// entries and related stories alike).
    func storyCount(fromFile file: String) -> Int {
        origins.count { $0.file == file }
    }

    private mutating func addPrimary(_ entry: StoryFile.Entry) {
        let story = entry.story
        let prefix = entry.origin.entry.map { "\($0): " } ?? ""
        if let earlier = byUUID[story.key] {
            problems.append(SourceProblem(
                file: entry.origin.file,
                message: "\(prefix)duplicate uuid '\(story.uuid)' (also in \(origins[earlier]))"))
        } else if let earlier = bySlug[SlugLookup.key(story.fullSlug)] {
            let other = stories[earlier].fullSlug == story.fullSlug ? "" : " as '\(stories[earlier].fullSlug)'"
            problems.append(SourceProblem(
                file: entry.origin.file,
                message: "\(prefix)duplicate full_slug '\(story.fullSlug)' (also in \(origins[earlier])\(other))"))
        } else {
            add(entry)
        }
    }

    private mutating func add(_ entry: StoryFile.Entry) {
        let position = stories.count
        stories.append(entry.story)
        origins.append(entry.origin)
        byUUID[entry.story.key] = position
        bySlug[SlugLookup.key(entry.story.fullSlug)] = position
        if let id = entry.story.id {
            if !byID.insertIfAbsent(position, forKey: id) { repeatsIDs = true }
        }
    }
}
