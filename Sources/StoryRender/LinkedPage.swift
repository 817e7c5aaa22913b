import StoryModel

/// The story a link points to, with the site-relative URL of its page (`""` for home,
/// `"blog/post/"`; nil when the story has no page): what a link needs, found at once.
public struct LinkedPage: Sendable {
    public var story: Story
    public var url: String?

    public init(story: Story, url: String?) {
        self.story = story
        self.url = url
    }
}
