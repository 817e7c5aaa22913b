import Mustache
import StoryCrawl
import StoryModel
import StoryRender
import Testing

@Suite("Link resolution over the crawl's graph")
struct GraphLinkResolverTests {
    /// The resolver over a graph of the test stories, the global one without a page.
    private func testGraphResolver() -> GraphLinkResolver {
        let graph = LinkGraph(
            stories: testStories.enumerated().map { LinkGraph.Node(story: $0.element, depth: $0.offset, firstLinkedFrom: nil) },
            edges: [])
        return GraphLinkResolver(graph: graph) { story in
            story.fullSlug == "global" ? nil : testResolver.pageURL(of: story)
        }
    }

    @Test("stories come from the graph (UUID, numeric id, slug), page URLs from the layout function")
    func resolves() {
        let resolver = testGraphResolver()
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

    @Test("a link's page URL is found without its story as it is with it, through a link's lookup order too")
    func linkedURLs() {
        let resolver = testGraphResolver()
        let references: [StoryReference] = [.uuid("uuid-post"), .id(2), .slug("/blog"), .uuid("uuid-global"), .uuid("nope"), .slug("nowhere")]
        for reference in references {
            #expect(resolver.linkedURL(for: reference)?.url == resolver.page(for: reference)?.url, "\(reference)")
            #expect((resolver.linkedURL(for: reference) == nil) == (resolver.page(for: reference) == nil), "\(reference)")
        }
        #expect(resolver.linkedURL(for: .uuid("uuid-global"))?.url == nil)
        #expect(resolver.linkedURL(for: .uuid("uuid-global")) != nil)

        let links = PageLinks(resolver: resolver, pageURL: "about/", fullSlug: "about")
        let moved = StoryLink(reference: .uuid("gone"), cachedURL: "blog/post")
        #expect(links.linkedURL(for: moved)?.url == "blog/post/")
        #expect(links.linkedURL(for: moved).flatMap { links.href(to: $0, anchor: "top") } == "../blog/post/#top")
        #expect(links.linkedURL(for: StoryLink(reference: .uuid("gone"), cachedURL: "nowhere")) == nil)
    }

    @Test("the site root is the graph's root story, whatever its slug: for links to / and for breadcrumbs")
    func rootStory() throws {
        let root = makeStory(uuid: "uuid-en", slug: "en/home", name: "Start")
        let docs = makeStory(uuid: "uuid-docs", slug: "en/docs/", name: "Docs")
        let setup = parseStory(#"""
            {"uuid": "uuid-setup", "full_slug": "en/docs/setup", "name": "Setup", "content": {"component": "page", "_uid": "s",
             "text": "[home](/), [top](/#top) and [up](../../)",
             "link": {"fieldtype": "multilink", "linktype": "url", "url": "/", "id": "", "cached_url": "/"}}}
            """#)
        let other = makeStory(uuid: "uuid-home", slug: "home", name: "Old home")
        let graph = LinkGraph(
            stories: [root, docs, setup, other].map { LinkGraph.Node(story: $0, depth: 0, firstLinkedFrom: nil) },
            edges: [], root: root)
        let resolver = GraphLinkResolver(graph: graph) { story in
            story.uuid == root.uuid ? "" : story.isStartPage ? story.fullSlug : story.fullSlug + "/"
        }
        #expect(resolver.rootSlug == "en/home")
        #expect(testResolver.rootSlug == "home")

        let links = PageLinks(resolver: resolver, pageURL: "en/docs/setup/", fullSlug: "en/docs/setup")
        #expect(links.sitePath("/") == .page(href: "../../../"))
        #expect(links.sitePath("/#top") == .page(href: "../../../#top"))
        #expect(links.sitePath("./../../") == .page(href: "../../../"))
        #expect(links.sitePath("/home") == .page(href: "../../../home/"))

        let templates = [
            "pages/page": "{{#page.breadcrumbs}}<a href=\"{{href}}\">{{name}}</a>{{/page.breadcrumbs}}|{{link.href}}|{{#markdown}}{{{text}}}{{/markdown}}",
        ]
        let renderer = PageRenderer(library: try TemplateLibrary(templates: templates), resolver: resolver)
        let page = try renderer.render(setup)
        #expect(page.html == """
            <a href="../../../">Start</a><a href="../">Docs</a>|../../../|\
            <p><a href="../../../">home</a>, <a href="../../../#top">top</a> and <a href="../../../">up</a></p>

            """)
        #expect(page.warnings.isEmpty)
        #expect(try renderer.render(root).html.hasPrefix("|"))
    }
}

@Suite("Site paths")
struct SitePathTests {
    static let targets = [
        "/", "/#top", "/about", "/about/", "/about#team", "/about/#team", "/blog/post", "/blog//post", "/blog/post#",
        "/blog/post?x=1", "/blog/../about", "/./about", "/a%20b", "/assets/x.png", "//host/about", "/ about",
        "about", "./about", "../about", "https://site.example/about", "#top", "mailto:a@b.c", "/blog/post#a.b",
    ]

    @Test("the fast reading of root paths agrees with SitePathReference", arguments: targets)
    func agreesWithParser(_ target: String) {
        let links = PageLinks(resolver: testResolver, pageURL: "blog/post/", fullSlug: "blog/post", baseURL: "https://site.example/")
        let expected: PageLinks.SitePath
        if let site = SitePathReference.parse(target, from: "blog/post", baseURL: "https://site.example/") {
            if let story = testResolver.story(for: site.reference), let href = links.href(to: story, anchor: site.anchor) {
                expected = .page(href: href)
            } else {
                expected = .missing(reference: site.reference)
            }
        } else {
            expected = .external
        }
        #expect(links.sitePath(target) == expected)
    }
}
