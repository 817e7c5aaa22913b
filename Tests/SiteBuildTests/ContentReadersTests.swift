import StoryCrawl
import StoryModel
import Testing
@testable import SiteBuild

extension SiteBuildTests {
    @Suite("Which pages read which stories' content")
    struct ContentReadersTests {
        /// The UUIDs of the site's stories, in graph order.
        static let uuids = ["home", "blog", "post1", "post2", "author", "badge", "about", "global", "footer"]
        /// The global story and the story it relates to: every page reads their content.
        static let globalRelated: Set<String> = ["global", "footer"]

        static func story(_ uuid: String, _ slug: String, text: String, extra: String = "") throws -> Story {
            try Story(json: try #require(try JSONValue(parsing: """
                {"uuid": "\(uuid)", "full_slug": "\(slug)", "name": "Name \(uuid)"\(extra), "content": {"component": "page", "_uid": "r-\(uuid)", "text": "\(text)"}}
                """).objectValue))
        }

        /// A small site: home links to the blog's start page and to about; the blog lists its two
        /// posts; post1 relates to author, who relates to badge, and links to about; about links
        /// to post2; the global story relates to footer. `changed` says `v2` instead of `v1`;
        /// without `linking`, about does not link to post2.
        static func graph(changing changed: String? = nil, linking: Bool = true) throws -> LinkGraph {
            let slugs = [
                "home": "home", "blog": "blog/", "post1": "blog/post1", "post2": "blog/post2", "author": "authors/ann",
                "badge": "authors/badge", "about": "about", "global": "global", "footer": "footer",
            ]
            let stories = try uuids.map { uuid in
                try story(uuid, slugs[uuid]!, text: uuid == changed ? "v2" : "v1", extra: uuid == "blog" ? #", "slug": "blog""# : "")
            }
            func edge(_ source: String, _ target: String, _ kind: ReferenceKind, field: String = "link") -> LinkGraph.Edge {
                LinkGraph.Edge(source: source, fieldPath: field, kind: kind, reference: .uuid(target), target: target)
            }
            let edges = [
                edge("home", "blog", .multilink), edge("home", "about", .multilink, field: "other"),
                edge("blog", "post1", .listing, field: ""), edge("blog", "post2", .listing, field: ""),
                edge("post1", "author", .relation, field: "author"), edge("post1", "about", .multilink),
                edge("author", "badge", .relation, field: "badge"),
                edge("about", "post2", .multilink),
                edge("global", "footer", .relation, field: "footer"),
            ].filter { linking || $0.source != "about" }
            return LinkGraph(stories: stories.map { LinkGraph.Node(story: $0, depth: 0, firstLinkedFrom: nil) }, edges: edges, root: stories[0])
        }

        static func plan(_ graph: LinkGraph) -> PagePlan {
            PagePlan(graph: graph, settings: SiteSettings(jobs: 1))
        }

        static func fingerprintsAndReaders(_ graph: LinkGraph) -> (keys: [String], fingerprints: [String], readers: ContentReaders) {
            let plan = plan(graph)
            let (fingerprints, readers) = BuildPageFingerprints(graph: graph, plan: plan, key: "k", jobs: 2, notingReads: true)
                .fingerprintsAndReaders(of: plan.pages, listings: plan.pages.map(plan.listing(of:)), jobs: 2)
            return (plan.pages.map(\.key), fingerprints, readers)
        }

        @Test("the fixture site has the pages it is meant to: no page for the global story, a listing on the blog's start page")
        func fixtureShape() throws {
            let graph = try Self.graph()
            let plan = Self.plan(graph)
            #expect(plan.problems.isEmpty)
            #expect(plan.globalStory?.uuid == "global")
            #expect(Set(plan.pages.map(\.key)) == Set(Self.uuids).subtracting(["global"]))
            let blog = try #require(plan.pages.first { $0.key == "blog" })
            #expect(plan.listing(of: blog).children?.map(\.uuid) == ["post1", "post2"])
        }

        @Test("for each story, a change of its content alone changes the fingerprints of exactly the pages its readers name, and every page's for the global story and what it relates to",
              arguments: uuids)
        func changedPagesAreReaders(uuid: String) throws {
            let graph = try Self.graph()
            let before = Self.fingerprintsAndReaders(graph)
            let after = Self.fingerprintsAndReaders(try Self.graph(changing: uuid))
            #expect(before.keys == after.keys, "the head did not change, so neither did the pages")
            let changed = before.keys.indices.filter { before.fingerprints[$0] != after.fingerprints[$0] }
            #expect(!changed.isEmpty, "a story's content is read by some page")
            let position = try #require(graph.position(of: uuid))
            let readers = before.readers.pages(showingContentOf: [position], storyCount: graph.stories.count)
            if Self.globalRelated.contains(uuid) {
                #expect(readers == nil)
                #expect(changed == Array(before.keys.indices), "every page shows the global story")
            } else {
                let pages = try #require(readers)
                #expect(Set(changed).isSubset(of: Set(pages)), "changed \(changed.map { before.keys[$0] }), readers \(pages.map { before.keys[$0] })")
                #expect(pages == changed, "the readers are not more than the pages that changed")
                #expect(pages == pages.sorted())
            }
        }

        @Test("the readers of a story are those the fixture says: its own page, those that link to it, relate to it through one story, or list it")
        func namedReaders() throws {
            let graph = try Self.graph()
            let found = Self.fingerprintsAndReaders(graph)
            func readers(_ uuids: String...) throws -> Set<String>? {
                try found.readers.pages(showingContentOf: uuids.map { try #require(graph.position(of: $0)) }, storyCount: graph.stories.count).map { Set($0.map { found.keys[$0] }) }
            }
            #expect(try readers("post2") == ["post2", "blog", "about"])
            #expect(try readers("author") == ["author", "post1", "blog"], "post1 relates to author, blog lists post1 with what it shows")
            #expect(try readers("badge") == ["badge", "author", "post1"], "a relation of a relation is shown on the page, not in a listing")
            #expect(try readers("post2", "about") == ["post2", "blog", "about", "home", "post1"])
            #expect(try readers("post2", "footer") == nil)
            #expect(try readers() == [])
        }

        @Test("the fingerprints that come with the readers are the plain fingerprints, noting or not")
        func sameFingerprints() throws {
            let graph = try Self.graph()
            let plan = Self.plan(graph)
            let listings = plan.pages.map(plan.listing(of:))
            let plain = BuildPageFingerprints(graph: graph, plan: plan, key: "k", jobs: 2).fingerprints(of: plan.pages, listings: listings, jobs: 2)
            let noting = BuildPageFingerprints(graph: graph, plan: plan, key: "k", jobs: 2, notingReads: true)
            #expect(noting.fingerprints(of: plan.pages, listings: listings, jobs: 2) == plain)
            #expect(noting.fingerprintsAndReaders(of: plan.pages, listings: listings, jobs: 2).0 == plain)
            #expect(Set(plain).count == plain.count, "the pages' fingerprints differ")
        }
    }
}
