import StoryCrawl
import StoryModel
import Testing
@testable import SiteBuild

extension SiteBuildTests.BuildPageFingerprintsTests {
    @Test("a page's fingerprint follows what story.parent shows of its folder's start page (name, slug, URL), not its content")
    func parentInFingerprint() throws {
        func story(_ json: String) throws -> Story {
            try Story(json: try #require(try JSONValue(parsing: json).objectValue))
        }
        func postFingerprint(blog: String) throws -> String {
            let home = try story(#"{"uuid": "u-home", "full_slug": "home", "name": "Home", "content": {"component": "page", "_uid": "h"}}"#)
            let post = try story(#"{"uuid": "u-post", "full_slug": "blog/post", "name": "Post", "content": {"component": "page", "_uid": "p"}}"#)
            let graph = LinkGraph(
                stories: [home, try story(blog), post].map { LinkGraph.Node(story: $0, depth: 0, firstLinkedFrom: nil) }, edges: [], root: home)
            let plan = PagePlan(graph: graph, settings: SiteSettings())
            let page = try #require(plan.pages.first { $0.key == post.uuid })
            return BuildPageFingerprints(graph: graph, plan: plan, key: "k", jobs: 1).fingerprint(of: page, listing: plan.listing(of: page))
        }
        let blog = #"{"uuid": "u-blog", "full_slug": "blog/", "slug": "blog", "name": "Blog", "content": {"component": "page", "_uid": "b"}}"#
        let original = try postFingerprint(blog: blog)
        #expect(try postFingerprint(blog: blog.replacingOccurrences(of: #""name": "Blog""#, with: #""name": "News""#)) != original)
        #expect(try postFingerprint(blog: blog.replacingOccurrences(of: #""slug": "blog""#, with: #""slug": "weblog""#)) != original)
        #expect(try postFingerprint(blog: blog.replacingOccurrences(of: #""_uid": "b""#, with: #""_uid": "b", "intro": "new""#)) == original,
                "the parent's content is not shown")
    }
}
