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

        @Test("a page's fingerprint follows the start pages of the folders above it, and no other")
        func folderStartPagesInBreadcrumbs() throws {
            func story(_ uuid: String, _ slug: String, name: String) throws -> Story {
                try Story(json: try #require(try JSONValue(parsing: """
                    {"uuid": "\(uuid)", "full_slug": "\(slug)", "name": "\(name)", "content": {"component": "page", "_uid": "r"}}
                    """).objectValue))
            }
            /// The fingerprints of the folder `blog/2024/`'s start page and of a post in it, by UUID.
            func fingerprints(blog: String = "Blog", year: String = "2024", other: String = "Other") throws -> [String: String] {
                // The start page comes first, so a post that took its breadcrumbs would show here.
                let stories = [
                    try story("u-home", "home", name: "Home"), try story("u-year", "blog/2024/", name: year),
                    try story("u-blog", "blog/", name: blog), try story("u-post", "blog/2024/post", name: "Post"),
                    try story("u-other", "other/", name: other),
                ]
                let graph = LinkGraph(
                    stories: stories.map { LinkGraph.Node(story: $0, depth: 0, firstLinkedFrom: nil) }, edges: [], root: stories[0])
                let plan = PagePlan(graph: graph, settings: SiteSettings())
                let fingerprints = BuildPageFingerprints(graph: graph, plan: plan, key: "k", jobs: 1)
                var found: [String: String] = [:]
                for uuid in ["u-year", "u-post"] {
                    let page = try #require(plan.pages.first { $0.key == uuid })
                    found[uuid] = fingerprints.fingerprint(of: page, listing: plan.listing(of: page))
                }
                return found
            }
            let before = try fingerprints()
            let yearRenamed = try fingerprints(year: "Twenty twenty-four")
            #expect(yearRenamed["u-post"] != before["u-post"])
            let blogRenamed = try fingerprints(blog: "Journal")
            #expect(blogRenamed["u-post"] != before["u-post"])
            #expect(blogRenamed["u-year"] != before["u-year"])
            #expect(try fingerprints(other: "Elsewhere") == before)
        }
    }
}
