import StoryCrawl
import StoryModel

/// The link resolver over a crawl's ``LinkGraph``: stories come from the graph, page URLs from
/// the function that lays out the site (the CLI's output model).
public struct GraphLinkResolver: LinkResolving {
    /// The crawled stories and their links.
    public let graph: LinkGraph
    private let pageURLOfStory: @Sendable (Story) -> String?
    private let pageURLOfPosition: (@Sendable (Int) -> String?)?
    private let pageURLOfTag: @Sendable (String) -> String?
    private let elsewhere: @Sendable (StoryReference) -> Story?

    /// Resolves within `graph`; `pageURL` gives a story's site-relative page URL (`""` for home,
    /// `"blog/post/"`), or nil when it has no page; `tagPageURL` a tag's (nil without one);
    /// `elsewhere` the story a reference the graph does not know names in another language's
    /// graph (as its version in this language, when there is one). `pageURLAtPosition`, when
    /// given, is `pageURL` of the story at a position in the graph's stories, found without a
    /// lookup by UUID: the link to a story is then one lookup, not two.
    public init(
        graph: LinkGraph, pageURL: @escaping @Sendable (Story) -> String?, pageURLAtPosition: (@Sendable (Int) -> String?)? = nil,
        tagPageURL: @escaping @Sendable (String) -> String? = { _ in nil },
        elsewhere: @escaping @Sendable (StoryReference) -> Story? = { _ in nil }
    ) {
        self.graph = graph
        self.pageURLOfStory = pageURL
        self.pageURLOfPosition = pageURLAtPosition
        self.pageURLOfTag = tagPageURL
        self.elsewhere = elsewhere
    }

    public func story(for reference: StoryReference) -> Story? {
        graph.story(for: reference) ?? elsewhere(reference)
    }

    public func pageURL(of story: Story) -> String? {
        pageURLOfStory(story)
    }

    public func page(for reference: StoryReference) -> LinkedPage? {
        guard let pageURLOfPosition, let position = graph.position(for: reference) else {
            return story(for: reference).map { LinkedPage(story: $0, url: pageURL(of: $0)) }
        }
        return LinkedPage(story: graph.stories[position].story, url: pageURLOfPosition(position))
    }

    public func tagPageURL(of tag: String) -> String? {
        pageURLOfTag(tag)
    }

    /// The graph's root story's `full_slug` (the first entry).
    public var rootSlug: String {
        graph.rootSlug
    }
}
