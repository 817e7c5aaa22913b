import StoryModel

/// One language of a space translated folder by folder (`en/…`, `de/…`): the stories in the
/// language's folder. A reference to another language's story finds that story's version in
/// this language (a story of the same `group_id`, or one of its `alternates`), or nothing,
/// so a language's crawl stays in its own folder.
public struct FolderLanguageSource: StorySource {
    public let base: any StorySource
    /// The language's folder (`de/`).
    public let folder: String
    /// The stories of each translation group (`group_id`) in this language, when the base
    /// holds its stories in memory (a local folder); the API names versions in `alternates`.
    private let versions: [String: Story]

    public init(base: any StorySource, language: String) {
        self.base = base
        folder = language + "/"
        var versions: [String: Story] = [:]
        if let local = base as? LocalFolderSource {
            for story in local.index.stories where story.fullSlug.hasPrefix(language + "/") {
                if let group = story.translationGroup { versions.insertIfAbsent(story, forKey: group) }
            }
        }
        self.versions = versions
    }

    public var description: String {
        "\(base) (\(folder.dropLast()))"
    }

    public func stories(for references: [StoryReference]) async throws -> [StoryReference: Story] {
        let found = try await base.stories(for: references)
        var stories: [StoryReference: Story] = [:]
        var alternates: [StoryReference: StoryReference] = [:]
        for (reference, story) in found {
            if story.fullSlug.hasPrefix(folder) {
                stories[reference] = story
            } else if let version = story.translationGroup.flatMap({ versions[$0] }) {
                stories[reference] = version
            } else if let alternate = alternateSlug(of: story) {
                alternates[reference] = .slug(alternate)
            }
        }
        if !alternates.isEmpty {
            let versions = try await base.stories(for: Array(Set(alternates.values)))
            for (reference, alternate) in alternates {
                if let version = versions[alternate], version.fullSlug.hasPrefix(folder) { stories[reference] = version }
            }
        }
        return stories
    }

    public func allStories() async throws -> [Story]? {
        try await base.allStories()?.filter { $0.fullSlug.hasPrefix(folder) }
    }

    public func stories(matching query: StoryQuery) async throws -> [Story] {
        try await base.stories(matching: query).filter { $0.fullSlug.hasPrefix(folder) }
    }

    /// The `full_slug` of `story`'s version in this language among its `alternates`.
    private func alternateSlug(of story: Story) -> String? {
        for alternate in story.field("alternates")?.arrayValue ?? [] {
            guard let slug = alternate["full_slug"]?.stringValue.map(Story.normalizedSlug), slug.hasPrefix(folder) else { continue }
            return slug
        }
        return nil
    }
}

extension Story {
    /// What the versions of a story in a folder-translated space share: its `group_id`.
    public var translationGroup: String? {
        string("group_id")
    }
}
