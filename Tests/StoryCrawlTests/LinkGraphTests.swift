import StoryModel
import Testing
@testable import StoryCrawl

extension StoryCrawlTests {
    @Suite("Link graph")
    struct LinkGraphTests {
        private func graph() throws -> LinkGraph {
            let home = try story("u-home", "home", id: 1)
            let blog = try story("u-blog", "blog/", id: 2)
            let post = try story("u-post", "blog/post", id: 3)
            return LinkGraph(
                stories: [
                    .init(story: home, depth: 0, firstLinkedFrom: nil),
                    .init(story: blog, depth: 1, firstLinkedFrom: "u-home"),
                    .init(story: post, depth: 2, firstLinkedFrom: "u-blog"),
                ],
                edges: [
                    .init(source: "u-home", fieldPath: "nav[0].link", kind: .multilink, reference: .uuid("u-blog"), cachedURL: "blog", target: "u-blog"),
                    .init(source: "u-home", fieldPath: "md", kind: .markdown, reference: .slug("blog/post"), target: "u-post"),
                    .init(source: "u-blog", fieldPath: "list[0]", kind: .relation, reference: .uuid("u-post"), target: "u-post"),
                    .init(source: "u-blog", fieldPath: "self", kind: .multilink, reference: .uuid("u-blog"), cachedURL: "old-blog", target: "u-blog"),
                    .init(source: "u-post", fieldPath: "up", kind: .multilink, reference: .uuid("u-home"), target: "u-home"),
                    .init(source: "u-post", fieldPath: "gone", kind: .richtext, reference: .slug("nowhere"), anchor: "x", target: nil),
                ],
                orphans: [])
        }

        @Test("finds reached stories by uuid, numeric id and slug, with or without slashes")
        func lookups() throws {
            let graph = try graph()
            #expect(graph.story(uuid: "u-post")?.fullSlug == "blog/post")
            #expect(graph.node(uuid: "u-post")?.depth == 2)
            #expect(graph.story(uuid: "nope") == nil)
            #expect(graph.story(for: .uuid("u-blog"))?.uuid == "u-blog")
            #expect(graph.story(for: .uuid("3"))?.uuid == "u-post")
            #expect(graph.story(for: .id(1))?.uuid == "u-home")
            #expect(graph.story(for: .slug("blog"))?.uuid == "u-blog")
            #expect(graph.story(for: .slug("/blog/post/"))?.uuid == "u-post")
            #expect(graph.story(for: .slug("elsewhere")) == nil)
        }

        @Test("resolves a story link through its lookup order, as the crawler does")
        func storyLinks() throws {
            let graph = try graph()
            #expect(graph.story(for: StoryLink(reference: .uuid("u-unknown"), cachedURL: "blog/post"))?.uuid == "u-post")
            #expect(graph.story(for: StoryLink(reference: .uuid("u-unknown"))) == nil)
        }

        @Test("lists edges by source, backlinks without self links, unresolved and stale edges")
        func edges() throws {
            let graph = try graph()
            #expect(graph.edges(from: "u-blog").map(\.fieldPath) == ["list[0]", "self"])
            #expect(graph.edges(from: "u-nothing").isEmpty)
            #expect(graph.backlinks(to: "u-post") == ["u-home", "u-blog"])
            #expect(graph.backlinks(to: "u-blog") == ["u-home"])
            #expect(graph.backlinks(to: "u-home") == ["u-post"])
            #expect(graph.unresolvedEdges.map(\.fieldPath) == ["gone"])
            #expect(graph.staleEdges.map(\.fieldPath) == ["self"])
        }

        @Test("gives back every edge as it was given, whatever its reference, anchor, saved slug and ends")
        func edgesAsGiven() throws {
            let home = try story("u-home", "home", id: 1)
            let post = try story("u-post", "blog/post", id: 3)
            let edges: [LinkGraph.Edge] = [
                .init(source: "u-home", fieldPath: "body[0].columns[12].link", kind: .multilink, reference: .uuid("u-post"), cachedURL: "blog/post", target: "u-post"),
                .init(source: "u-home", fieldPath: "", kind: .listing, reference: .uuid("u-post"), target: "u-post"),
                .init(source: "u-home", fieldPath: "text.content[0].marks[0]", kind: .richtext, reference: .uuid("3"), anchor: "a b", target: "u-post"),
                .init(source: "u-home", fieldPath: "md", kind: .markdown, reference: .slug("blog/post/"), anchor: "top", target: "u-post"),
                .init(source: "u-home", fieldPath: "by.id", kind: .multilink, reference: .id(3), cachedURL: "", target: "u-post"),
                .init(source: "u-home", fieldPath: "é.ü", kind: .relation, reference: .uuid("u-elsewhere"), target: "u-elsewhere"),
                .init(source: "u-post", fieldPath: String(repeating: "deep[0].", count: 40) + "link", kind: .multilink, reference: .slug("nowhere"), target: nil),
                .init(source: "u-unknown", fieldPath: "x", kind: .markdown, reference: .uuid("u-home"), target: "u-home"),
            ]
            let graph = LinkGraph(
                stories: [.init(story: home, depth: 0, firstLinkedFrom: nil), .init(story: post, depth: 1, firstLinkedFrom: "u-home")],
                edges: edges, jobs: 2)
            #expect(Array(graph.edges) == edges)
            #expect(graph.edges.map { graph.kind(ofEdge: graph.edges.firstIndex(of: $0)!) } == edges.map(\.kind))
            #expect(graph.unresolvedEdges == [edges[6]])
            #expect(edges.indices.map(graph.isUnresolvedEdge(at:)) == edges.map { $0.target == nil })
            #expect(edges.indices.map(graph.targetPosition(ofEdge:)) == [1, 1, 1, 1, 1, nil, nil, 0])
            // The saved slug `` of a link by id is out of date; the link by short id to its story is not.
            #expect(graph.staleEdges == [edges[4]])
            #expect(graph.edges(from: "u-home").count == 6 && graph.references(from: "u-home").count == 5)
            #expect(graph.listing(of: "u-home") == ["u-post"])
            #expect(graph.backlinks(to: "u-post") == ["u-home"])
        }
    }
}
