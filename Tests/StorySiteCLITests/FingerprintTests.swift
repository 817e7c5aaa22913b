import SiteOutput
import StoryCrawl
import StoryModel
import Testing
@testable import StorySiteCLI

extension StorySiteCLITests {
    @Suite("Page fingerprints")
    struct FingerprintTests {
        static func hex(_ value: JSONValue) -> String {
            var fingerprint = Fingerprint()
            fingerprint.combine(value)
            return fingerprint.hex
        }

        @Test("a JSON tree's fingerprint tells kinds, order and values apart")
        func jsonKinds() throws {
            let values: [JSONValue] = [
                .null, .bool(true), .bool(false), .number(1), .string("1"), .array([]), .object(JSONObject()),
                .array([.string("a"), .string("b")]), .array([.string("b"), .string("a")]), .array([.string("ab")]),
                try JSONValue(parsing: #"{"a": 1, "b": 2}"#), try JSONValue(parsing: #"{"b": 2, "a": 1}"#),
            ]
            #expect(Set(values.map(Self.hex)).count == values.count)
            #expect(Self.hex(try JSONValue(parsing: #"{"a": [1, "x"]}"#)) == Self.hex(try JSONValue(parsing: #"{"a":[1,"x"]}"#)))
        }

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
                let plan = PagePlan(graph: graph, global: "global")
                #expect(plan.location(of: root)?.url == "")
                return BuildPageFingerprints(graph: graph, plan: plan, key: "k", jobs: 1).fingerprint(of: setup)
            }
            #expect(try setupFingerprint(rootName: "Start") != setupFingerprint(rootName: "Welcome"))
        }
    }
}
