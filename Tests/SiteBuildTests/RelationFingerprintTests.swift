import StoryCrawl
import StoryModel
import Testing
@testable import SiteBuild

extension SiteBuildTests.BuildPageFingerprintsTests {
    @Test("a page's fingerprint follows what it shows of relations two levels down: their content, then the names of theirs")
    func relationsTwoLevelsInFingerprint() throws {
        func story(_ uuid: String, _ slug: String, name: String, fields: String = "") throws -> Story {
            try Story(json: try #require(try JSONValue(parsing: """
                {"uuid": "\(uuid)", "full_slug": "\(slug)", "name": "\(name)", "content": {"component": "page", "_uid": "\(uuid)"\(fields)}}
                """).objectValue))
        }
        func relation(_ source: String, _ target: String) -> LinkGraph.Edge {
            LinkGraph.Edge(source: source, fieldPath: "related", kind: .relation, reference: .uuid(target), target: target)
        }
        /// The fingerprint of `post`, which relates to `a`, which relates to `b`, which relates to `c`.
        func postFingerprint(b: String = "Bee", bRole: String = "x", c: String = "Cee", cRole: String = "y") throws -> String {
            let stories = [
                try story("post", "blog/post", name: "Post"), try story("a", "a", name: "A"),
                try story("b", "b", name: b, fields: #", "role": "\#(bRole)""#), try story("c", "c", name: c, fields: #", "role": "\#(cRole)""#),
            ]
            let graph = LinkGraph(
                stories: stories.map { LinkGraph.Node(story: $0, depth: 0, firstLinkedFrom: nil) },
                edges: [relation("post", "a"), relation("a", "b"), relation("b", "c")], root: stories[0])
            let plan = PagePlan(graph: graph, settings: SiteSettings())
            let page = try #require(plan.pages.first { $0.key == "post" })
            return BuildPageFingerprints(graph: graph, plan: plan, key: "k", jobs: 1).fingerprint(of: page, listing: plan.listing(of: page))
        }
        let original = try postFingerprint()
        #expect(try postFingerprint(bRole: "changed") != original, "b's content is shown (a relation of a relation)")
        #expect(try postFingerprint(c: "Sea") != original, "c's name is shown (a relation three levels down)")
        #expect(try postFingerprint(cRole: "changed") == original, "c's content is not")
    }
}
