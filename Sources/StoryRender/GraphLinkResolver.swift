import StoryCrawl
import StoryModel

/// The link resolver over a crawl's ``LinkGraph``: stories come from the graph, page URLs from
/// the function that lays out the site (the CLI's output model).
public struct GraphLinkResolver: LinkResolving {
    /// The crawled stories and their links.
    public let graph: LinkGraph
    private let pageURLOfStory: @Sendable (Story) -> String?
    private let pageURLOfPosition: @Sendable (Int) -> String?
    private let pageURLOfTag: @Sendable (String) -> String?
    private let elsewhere: @Sendable (StoryReference) -> Story?

    /// Resolves within `graph`; `pageURL` gives a story's site-relative page URL (`""` for home,
    /// `"blog/post/"`), or nil when it has no page; `tagPageURL` a tag's (nil without one);
    /// `elsewhere` the story a reference the graph does not know names in another language's
    /// graph (as its version in this language, when there is one). `pageURLAtPosition` is
    /// `pageURL` of the story at a position in the graph's stories, for a caller that finds it
    /// without a lookup by UUID: the link to a story is then one lookup, not two. Without it,
    /// `pageURL` is asked.
    public init(
        graph: LinkGraph, pageURL: @escaping @Sendable (Story) -> String?, pageURLAtPosition: (@Sendable (Int) -> String?)? = nil,
        tagPageURL: @escaping @Sendable (String) -> String? = { _ in nil },
        elsewhere: @escaping @Sendable (StoryReference) -> Story? = { _ in nil }
    ) {
        self.graph = graph
        self.pageURLOfStory = pageURL
        self.pageURLOfPosition = pageURLAtPosition ?? { [graph] in pageURL(graph.stories[$0].story) }
        self.pageURLOfTag = tagPageURL
        self.elsewhere = elsewhere
    }

    public func story(for reference: StoryReference) -> Story? {
        graph.story(for: reference) ?? elsewhere(reference)
    }

    public func pageURL(of story: Story) -> String? {
        pageURLOfStory(story)
    }

    /// The graph's story by its position, with its page's URL from that; or another language's.
    public func page(for reference: StoryReference) -> LinkedPage? {
        if let position = graph.position(for: reference) {
            return LinkedPage(story: graph.stories[position].story, url: pageURLOfPosition(position))
        }
        return elsewhere(reference).map { LinkedPage(story: $0, url: pageURL(of: $0)) }
    }

    /// The URL of the page of the graph's story by its position, without touching the story
    /// (a link's href: a page of a large site has many, each to a story elsewhere in memory).
    public func linkedURL(for reference: StoryReference) -> LinkedURL? {
        if let position = graph.position(for: reference) { return LinkedURL(url: pageURLOfPosition(position)) }
        return elsewhere(reference).map { LinkedURL(url: pageURL(of: $0)) }
    }

    public func tagPageURL(of tag: String) -> String? {
        pageURLOfTag(tag)
    }

    /// The graph's root story's `full_slug` (the first entry).
    public var rootSlug: String {
        graph.rootSlug
    }
}
