import StoryModel

/// A question for a whole group of stories, as listings and collections ask it: every story
/// below a folder, optionally only those with a tag. Answered by the Content Delivery API's
/// `starts_with` and `with_tag`, and by a local folder from its index.
public struct StoryQuery: Sendable, Hashable, CustomStringConvertible {
    /// The folder (`blog/`): stories whose `full_slug` starts with it, at any depth. `""` asks
    /// for the whole space.
    public var folder: String
    /// Only stories whose `tag_list` holds this tag, when set.
    public var tag: String?

    public init(folder: String, tag: String? = nil) {
        self.folder = folder
        self.tag = tag
    }

    /// Whether `story` answers the query.
    public func matches(_ story: Story) -> Bool {
        story.fullSlug.hasPrefix(folder) && (tag.map { story.tags.contains($0) } ?? true)
    }

    public var description: String {
        (folder.isEmpty ? "every story" : "the stories in '\(folder)'") + (tag.map { " tagged '\($0)'" } ?? "")
    }
}
