import StoryCrawl
import StoryModel
import StoryRender
import Testing

@Suite("Link resolution over the crawl's graph")
struct GraphLinkResolverTests {
    @Test("stories come from the graph (UUID, numeric id, slug), page URLs from the layout function")
    func resolves() {
        let graph = LinkGraph(
            stories: testStories.enumerated().map { LinkGraph.Node(story: $0.element, depth: $0.offset, firstLinkedFrom: nil) },
            edges: [])
        let resolver = GraphLinkResolver(graph: graph) { story in
            story.fullSlug == "global" ? nil : testResolver.pageURL(of: story)
        }
        #expect(resolver.story(for: .uuid("uuid-post"))?.fullSlug == "blog/post")
        #expect(resolver.story(for: .id(2))?.fullSlug == "about")
        #expect(resolver.story(for: .slug("/blog"))?.fullSlug == "blog/")
        #expect(resolver.story(for: .uuid("nope")) == nil)
        #expect(resolver.pageURL(of: testStories[3]) == "blog/post/")
        #expect(resolver.pageURL(of: testStories[4]) == nil)

        let links = PageLinks(resolver: resolver, pageURL: "blog/post/", fullSlug: "blog/post")
        #expect(links.href(to: testStories[1], anchor: "team") == "../../about/#team")
        #expect(links.sitePath("../about") == .page(href: "../../about/"))
        #expect(links.sitePath("/nowhere") == .missing(reference: .slug("nowhere")))
        #expect(links.sitePath("https://example.com/") == .external)
    }
}
