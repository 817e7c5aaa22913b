import StoryCrawl
import StoryModel
import Testing
@testable import SiteBuild

extension SiteBuildTests {
    @Suite("Page fingerprints")
    struct BuildPageFingerprintsTests {
        @Test("a page's fingerprint follows the root story of its breadcrumbs, whatever its slug")
        func rootStoryInBreadcrumbs() throws {
            func story(_ uuid: String, _ slug: String, name: String) throws -> Story {
                try Story(json: try #require(try JSONValue(parsing: """
                    {"uuid": "\(uuid)", "full_slug": "\(slug)", "name": "\(name)", "content": {"component": "page", "_uid": "r"}}
                    """).objectValue))
            }
            func setupFingerprint(rootName: String) throws -> String {
                let root = try story("u-en", "en/home", name: rootName)
                let setup = try story("u-setup", "en/docs/setup", name: "Setup")
                let graph = LinkGraph(
                    stories: [root, setup].map { LinkGraph.Node(story: $0, depth: 0, firstLinkedFrom: nil) }, edges: [], root: root)
                let plan = PagePlan(graph: graph, settings: SiteSettings())
                #expect(plan.location(of: root)?.url == "")
                let page = try #require(plan.pages.first { $0.key == setup.uuid })
                return BuildPageFingerprints(graph: graph, plan: plan, key: "k", jobs: 1).fingerprint(of: page, listing: plan.listing(of: page))
            }
            #expect(try setupFingerprint(rootName: "Start") != setupFingerprint(rootName: "Welcome"))
        }
    }
}
