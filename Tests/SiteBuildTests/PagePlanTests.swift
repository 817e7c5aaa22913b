import Mustache
import StoryCrawl
import StoryModel
import Testing
@testable import SiteBuild

extension SiteBuildTests {
    @Suite("The site model: pages, listings and tags")
    struct PagePlanTests {
        private func story(_ uuid: String, _ slug: String, tags: [String] = [], extra: String = "") throws -> Story {
            let tagList = tags.map { "\"\($0)\"" }.joined(separator: ", ")
            return try Story(json: try #require(try JSONValue(parsing: """
                {"uuid": "\(uuid)", "full_slug": "\(slug)", "tag_list": [\(tagList)], "content": {"component": "page"}\(extra)}
                """).objectValue))
        }

        /// A graph of `stories` (the first is the root) where each start page lists its folder.
        private func graph(_ stories: [Story]) -> LinkGraph {
            let edges = stories.flatMap { start -> [LinkGraph.Edge] in
                guard let folder = start.startPageFolder else { return [] }
                return stories.filter { $0.uuid != start.uuid && $0.listingFolder == folder }.map {
                    LinkGraph.Edge(source: start.uuid, fieldPath: "", kind: .listing, reference: .uuid($0.uuid), target: $0.uuid)
                }
            }
            return LinkGraph(stories: stories.map { LinkGraph.Node(story: $0, depth: 0, firstLinkedFrom: nil) }, edges: edges, root: stories.first)
        }

        private func settings(perPage: Int? = nil, feed: Bool = false, baseURL: String? = nil) -> SiteSettings {
            var settings = SiteSettings(baseURL: baseURL)
            settings.listings["blog/"] = ListingSettings(perPage: perPage, feed: feed)
            return settings
        }

        @Test("a story's page URL is found from its place in the graph as from the story: none for the global story, a UUID reached twice by its first place")
        func urlsByPosition() throws {
            let stories = try [
                story("home", "home"), story("about", "about"), story("global", "global"), story("blog", "blog/"),
                story("about", "about-again"), story("post", "blog/post"),
            ]
            let graph = graph(stories)
            let plan = PagePlan(graph: graph, settings: SiteSettings())
            for node in graph.stories {
                let position = try #require(graph.position(of: node.story))
                #expect(plan.url(ofStoryAt: position) == plan.location(of: node.story)?.url, "\(node.story.fullSlug)")
            }
            #expect(plan.url(ofStoryAt: 2) == nil)
            #expect(plan.url(ofStoryAt: 1) == "about-again/")
            #expect(plan.url(ofStoryAt: stories.count) == nil)
            // Each of its pages has the location last given for it.
            #expect(plan.pages.filter { $0.kind.story?.uuid == "about" }.map(\.location.url) == ["about-again/", "about-again/"])

            let renderer = SiteGenerator.renderer(of: plan, graph: graph, templates: try TemplateLibrary(templates: [:]), settings: SiteSettings())
            for reference in [StoryReference.uuid("about"), .slug("blog"), .slug("global"), .uuid("missing")] {
                let page = renderer.resolver.page(for: reference)
                #expect(page?.story.uuid == renderer.resolver.story(for: reference)?.uuid)
                #expect(page?.url == page.flatMap { renderer.resolver.pageURL(of: $0.story) })
            }
            #expect(renderer.resolver.page(for: .slug("blog/post"))?.url == "blog/post/")
        }

        @Test("a listing of 0, 1, perPage and perPage + 1 stories fills 1, 1, 1 and 2 pages", arguments: [(0, 1), (1, 1), (3, 1), (4, 2)])
        func paginationBoundaries(posts: Int, pages: Int) throws {
            let stories = try [story("home", "home"), story("blog", "blog/")] + (0..<posts).map { try story("p\($0)", "blog/post-\($0)") }
            let plan = PagePlan(graph: graph(stories), settings: settings(perPage: 3))
            let listingPages = plan.pages.filter { $0.kind.story?.uuid == "blog" }
            #expect(listingPages.map(\.location.url) == ["blog/"] + (1..<pages).map { "blog/page/\($0 + 1)/" })
            let shown = listingPages.map { plan.listing(of: $0).children?.count ?? -1 }
            #expect(shown.reduce(0, +) == posts)
            #expect(listingPages.allSatisfy { plan.listing(of: $0).pagination?.total == pages })
        }

        @Test("tags with the same slug are one tag, named as first written; a tag with no letter or digit is a warning")
        func tags() throws {
            let stories = try [
                story("home", "home"), story("a", "a", tags: ["Swift", "!!!"]), story("b", "b", tags: ["swift", "Server Side"]),
            ]
            let plan = PagePlan(graph: graph(stories), settings: SiteSettings(), tagPages: true, tagIndex: true)
            #expect(plan.tags?.tags.map { "\($0.slug)=\($0.name):\($0.stories.count)" } == ["server-side=Server Side:1", "swift=Swift:2"])
            #expect(plan.pages.map(\.location.url).suffix(3) == ["tags/server-side/", "tags/swift/", "tags/"])
            #expect(plan.tagPageURL(of: "SWIFT") == "tags/swift/")
            #expect(plan.problems.map(\.description) == [
                "a: warning: the tag '!!!' has no letter or digit to make a page URL from; it gets no tag page",
            ])
        }

        @Test("a story on a generated page's path is an error naming both")
        func collisions() throws {
            let stories = try [
                story("home", "home"), story("blog", "blog/"), story("p1", "blog/one"), story("p2", "blog/two"),
                story("clash", "blog/page/2"), story("tagged", "x", tags: ["t"]), story("tagstory", "tags/t"),
            ]
            let plan = PagePlan(graph: graph(stories), settings: settings(perPage: 1), tagPages: true)
            let errors = plan.problems.filter { $0.severity == .error }.map(\.description)
            #expect(errors.contains("blog/page/2/index.html: error: two pages map to this file: 'blog/page/2' and page 2 of the listing of 'blog/'; rename the story"))
            #expect(errors.contains { $0.hasPrefix("tags/t: error: the story's page would be at 'tags/t/', among the tag pages") })
        }

        @Test("two stories on one page are an error naming both; the first keeps the page, and a slug that makes no path is refused")
        func storiesOnOnePage() throws {
            // A start page is at its folder's URL, where a story with the folder's slug also goes.
            let stories = try [
                story("home", "home"), story("docs-start", "docs/", extra: #", "is_startpage": true"#), story("docs", "docs"),
                story("dots", "a/../b"), story("after", "after"),
            ]
            let plan = PagePlan(graph: graph(stories), settings: SiteSettings())
            let errors = plan.problems.filter { $0.severity == .error }.map(\.description)
            #expect(errors.contains("docs/index.html: error: two stories map to this page: 'docs/' and 'docs'; rename one of them"))
            #expect(errors.contains { $0.hasPrefix("a/../b: error: ") && $0.hasSuffix("; rename the story") })
            #expect(plan.stories.map(\.uuid) == ["home", "docs-start", "after"])
            #expect(plan.pages.map(\.key) == ["home", "docs-start", "after"])
            #expect(plan.location(of: stories[2]) == nil)
            #expect(plan.url(ofStoryAt: 4) == "after/")
        }

        @Test("settings nothing shows are warnings: a listing of a folder not reached, a feed without a base URL")
        func unusedListings() throws {
            let stories = try [story("home", "home"), story("blog", "blog/"), story("p1", "blog/one")]
            var withDocs = settings(feed: true)
            withDocs.listings["docs/"] = ListingSettings()
            let plan = PagePlan(graph: graph(stories), settings: withDocs)
            #expect(plan.problems.map(\.description) == [
                "storysite.json: warning: 'listings.docs/': no start page of the folder 'docs/' was reached, so nothing shows this listing",
                "storysite.json: warning: 'listings.blog/': no feed written: feed readers need absolute links; set baseURL or --base-url",
            ])
            #expect(plan.feeds.isEmpty)
            #expect(plan.pages.allSatisfy { plan.listing(of: $0).feedURL == nil })
            let withBase = PagePlan(graph: graph(stories), settings: settings(feed: true, baseURL: "https://example.com/"))
            #expect(withBase.problems.isEmpty)
            #expect(withBase.pages.map { withBase.listing(of: $0).feedURL } == [nil, "blog/feed.xml", "blog/feed.xml"])
        }
    
        @Test("a plan brought up to date with new versions of stories that kept their heads shows them wherever the plan made anew does: pages, listings, feeds, tags")
        func updatedWithNewVersions() throws {
            let stories = try [story("home", "home"), story("blog", "blog/")]
                + (0..<5).map { try story("p\($0)", "blog/post-\($0)", tags: ["news"]) }
            let newVersion = try Story(json: try #require(try JSONValue(parsing: """
                {"uuid": "p1", "full_slug": "blog/post-1", "tag_list": ["news"], "content": {"component": "page", "text": "new"}}
                """).objectValue))
            let settings = settings(perPage: 2, feed: true, baseURL: "https://example.com/")
            let plan = PagePlan(graph: graph(stories), settings: settings, tagPages: true)
            let afresh = PagePlan(graph: graph(stories.map { $0.uuid == "p1" ? newVersion : $0 }), settings: settings, tagPages: true)
            var updated = plan
            let took = updated.update(with: StoryVersions([(stories[3], newVersion)]))
            #expect(took)
            /// Every story the plan shows, by version: on its pages, in their listings, its feeds and tags.
            func versions(_ plan: PagePlan) -> [ObjectIdentifier] {
                var shown: [Story] = plan.stories
                for page in plan.pages {
                    shown += [page.kind.story].compactMap { $0 } + (plan.listing(of: page).children ?? [])
                }
                shown += plan.feeds.flatMap(\.pages.items)
                shown += plan.tags?.tags.flatMap(\.stories) ?? []
                return shown.map(\.versionID)
            }
            #expect(versions(updated) == versions(afresh))
            #expect(versions(plan) != versions(afresh), "the plan it was made from is as it was")
            #expect(versions(updated).contains(newVersion.versionID))
            #expect(!versions(updated).contains(stories[3].versionID))
            #expect(updated.pages.map(\.location) == afresh.pages.map(\.location))
        }

        @Test("a plan whose listing or collection sorts or selects by content is not brought up to date: it must be made anew")
        func notUpdatedWhenContentSorts() throws {
            let stories = try [story("home", "home"), story("blog", "blog/"), story("p0", "blog/post-0")]
            /// Whether the plan of `stories` with `settings` takes no change at all.
            func updates(_ settings: SiteSettings) -> Bool {
                var plan = PagePlan(graph: graph(stories), settings: settings)
                return plan.update(with: StoryVersions([]))
            }
            var sorted = SiteSettings()
            sorted.listings["blog/"] = ListingSettings(order: try StoryOrder(parsing: "content.priority desc"))
            #expect(!updates(sorted))
            /// Settings with one collection of the blog's stories.
            func collecting(_ selection: StorySelection) -> SiteSettings {
                var settings = SiteSettings()
                settings.collections = [CollectionSettings(name: "posts", selection: selection)]
                return settings
            }
            #expect(!updates(collecting(StorySelection(folder: "blog/", component: "post"))))
            #expect(!updates(collecting(StorySelection(folder: "blog/", order: try StoryOrder(parsing: "content.priority")))))
            #expect(updates(collecting(StorySelection(folder: "blog/", order: try StoryOrder(parsing: "first_published_at desc"), limit: 3))))
            #expect(updates(SiteSettings()))
        }

        @Test("a plan brought up to date puts the new versions in its collections too")
        func updatedCollections() throws {
            let stories = try [story("home", "home"), story("blog", "blog/"), story("p0", "blog/post-0"), story("p1", "blog/post-1")]
            let newVersion = try Story(json: try #require(try JSONValue(parsing: """
                {"uuid": "p1", "full_slug": "blog/post-1", "tag_list": [], "content": {"component": "page", "text": "new"}}
                """).objectValue))
            var settings = SiteSettings()
            settings.collections = [CollectionSettings(name: "posts", selection: StorySelection(folder: "blog/"))]
            var plan = PagePlan(graph: graph(stories), settings: settings)
            let took = plan.update(with: StoryVersions([(stories[3], newVersion)]))
            #expect(took)
            #expect(plan.collections.first?.stories.map(\.versionID) == [stories[2].versionID, newVersion.versionID])
        }
    }
}
