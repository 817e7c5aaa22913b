/// Where a link to a story leads, without the story: the site-relative URL of its page (`""`
/// for home, `"blog/post/"`; nil when the story has no page). What a link's href needs; a
/// ``LinkedPage`` also holds the story, for links that show its name.
public struct LinkedURL: Sendable {
    public var url: String?

    public init(url: String?) {
        self.url = url
    }
}
