import Foundation
import LinkCheck
import StoryCrawl
import StoryModel
import Testing

extension LinkCheckTests {
    @Suite("Content-level check")
    struct ContentLinkCheckTests {
        @Test("reports broken and stale links by source story in crawl order, then orphans when asked, and counts stories and links")
        func plantedContentProblems() async throws {
            let graph = try await StorySpace.crawl([
                StorySpace.story("u-home", "home", [
                    "nav": [
                        ["_uid": "n1", "component": "nav_item", "link": StorySpace.storyLink("u-blog", cachedURL: "blog/")],
                        ["_uid": "n2", "component": "nav_item", "link": StorySpace.storyLink("u-deleted", cachedURL: "pricing")],
                    ],
                ]),
                StorySpace.story("u-blog", "blog/", [
                    "featured": StorySpace.storyLink("u-post", cachedURL: "blog/first-post"),
                    "intro": "Read [the guide](/docs/guide) first.",
                ]),
                StorySpace.story("u-post", "blog/hello"),
                StorySpace.story("u-lonely", "drafts/lonely"),
            ])
            let withoutOrphans = ContentLinkCheck.report(for: graph, includeOrphans: false)
            let expected = [
                Finding(severity: .broken, source: "home", location: .field("nav[1].link"), target: "u-deleted",
                        reason: "no story has this UUID (nor its cached_url 'pricing')"),
                Finding(severity: .warning, source: "blog/", location: .field("featured"), target: "u-post",
                        reason: "target renamed: cached_url 'blog/first-post' is now 'blog/hello'"),
                Finding(severity: .broken, source: "blog/", location: .field("intro"), target: "docs/guide",
                        reason: "no story has this slug"),
            ]
            #expect(withoutOrphans == CheckReport(findings: expected, stories: 3, links: 4))
            #expect(ContentLinkCheck.findings(in: graph, includeOrphans: true) == expected + [
                Finding(severity: .warning, source: "drafts/lonely", location: nil, target: "drafts/lonely",
                        reason: "orphan: no entry story links to it, directly or through others"),
            ])
        }

        @Test("names a source missing from the graph by its UUID")
        func sourceOutsideTheGraph() throws {
            let graph = LinkGraph(stories: [], edges: [
                .init(source: "u-ghost", fieldPath: "link", kind: .multilink, reference: .slug("nowhere"), anchor: "top", target: nil),
            ])
            #expect(ContentLinkCheck.findings(in: graph, includeOrphans: true) == [
                Finding(severity: .broken, source: "u-ghost", location: .field("link"), target: "nowhere#top", reason: "no story has this slug"),
            ])
        }
    }
}
