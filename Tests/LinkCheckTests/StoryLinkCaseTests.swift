import Foundation
import LinkCheck
import StoryCrawl
import Testing

extension LinkCheckTests {
    /// `link-edge-cases.md`, "Story links (before rendering)": one test per rule that concerns
    /// link checking (two stories mapping to one output path is the output stage's error).
    @Suite("Edge cases: story links")
    struct StoryLinkCaseTests {
        @Test("a story link resolved by UUID is fine even when its cached_url is stale, which warns")
        func staleCachedURL() async throws {
            let graph = try await StorySpace.crawl([
                StorySpace.story("u-home", "home", ["link": StorySpace.storyLink("u-about", cachedURL: "old-about")]),
                StorySpace.story("u-about", "about-us"),
            ])
            #expect(ContentLinkCheck.findings(in: graph, includeOrphans: false) == [
                Finding(severity: .warning, source: "home", location: .field("link"), target: "u-about",
                        reason: "target renamed: cached_url 'old-about' is now 'about-us'"),
            ])
        }

        @Test("an unknown UUID or slug is broken, with the source story and field path, also in richtext inside a blok inside a bloks array")
        func unresolvedReferences() async throws {
            let richtext: [String: Any] = [
                "type": "doc",
                "content": [["type": "paragraph", "content": [[
                    "type": "text", "text": "gone",
                    "marks": [["type": "link", "attrs": ["linktype": "story", "href": "/nowhere", "uuid": NSNull()]]],
                ]]]],
            ]
            let blokInRichtext: [String: Any] = [
                "type": "doc",
                "content": [["type": "blok", "attrs": ["body": [["_uid": "b2", "component": "note", "text": richtext]]]]],
            ]
            let graph = try await StorySpace.crawl([
                StorySpace.story("u-home", "home", [
                    "link": StorySpace.storyLink("u-missing", cachedURL: "also-missing"),
                    "body": [["_uid": "b1", "component": "section", "copy": blokInRichtext]],
                ]),
            ])
            #expect(ContentLinkCheck.findings(in: graph, includeOrphans: false) == [
                Finding(severity: .broken, source: "home", location: .field("body[0].copy.content[0].attrs.body[0].text.content[0].content[0].marks[0]"),
                        target: "nowhere", reason: "no story has this slug"),
                Finding(severity: .broken, source: "home", location: .field("link"), target: "u-missing",
                        reason: "no story has this UUID (nor its cached_url 'also-missing')"),
            ])
        }

        @Test("an empty multilink is no link")
        func emptyMultilink() async throws {
            let graph = try await StorySpace.crawl([
                StorySpace.story("u-home", "home", ["link": StorySpace.storyLink("", cachedURL: "")]),
            ])
            #expect(ContentLinkCheck.report(for: graph, includeOrphans: false) == CheckReport(stories: 1, links: 0))
        }

        @Test("a story link's anchor that the target page lacks is broken, on the rendered page")
        func missingAnchorOfStoryLink() async throws {
            let graph = try await StorySpace.crawl([
                StorySpace.story("u-home", "home", ["link": StorySpace.storyLink("u-team", cachedURL: "team", anchor: "lead")]),
                StorySpace.story("u-team", "team"),
            ])
            #expect(ContentLinkCheck.findings(in: graph, includeOrphans: false).isEmpty)
            let report = try await Fixture.check([
                "index.html": Fixture.page(##"<a href="team/#lead">Our lead</a>"##),
                "team/index.html": Fixture.page(##"<h1 id="team">Team</h1>"##),
            ])
            #expect(report.findings == [Fixture.broken("index.html", line: 3, "team/#lead", "no id or <a name> 'lead' in 'team/index.html'")])
        }

        @Test("a link to a folder start page resolves, to the folder's URL with a trailing slash")
        func folderStartPage() async throws {
            let graph = try await StorySpace.crawl([
                StorySpace.story("u-home", "home", ["link": StorySpace.storyLink("u-blog", cachedURL: "blog/")]),
                StorySpace.story("u-blog", "blog/"),
            ])
            #expect(ContentLinkCheck.findings(in: graph, includeOrphans: false).isEmpty)
            let report = try await Fixture.check([
                "index.html": Fixture.page(##"<a href="blog/">Blog</a>"##),
                "blog/index.html": Fixture.page(##"<a href="../">Home</a>"##),
            ])
            #expect(report.findings.isEmpty)
        }

        @Test("a self link resolves")
        func selfLink() async throws {
            let graph = try await StorySpace.crawl([
                StorySpace.story("u-home", "home", ["link": StorySpace.storyLink("u-home", cachedURL: "home")]),
            ])
            #expect(ContentLinkCheck.findings(in: graph, includeOrphans: false).isEmpty)
            let report = try await Fixture.check(["about/index.html": Fixture.page(##"<a href="../about/">About</a>"##, ##"<a href="./">About</a>"##)])
            #expect(report.findings.isEmpty)
        }

        @Test("a url link to the site's own origin, or a root path typed by an editor, is checked like an internal link")
        func ownOriginAndRootPaths() async throws {
            let graph = try await StorySpace.crawl([
                StorySpace.story("u-home", "home", [
                    "origin": StorySpace.urlLink("https://example.com/about"),
                    "root": StorySpace.urlLink("/about"),
                    "gone": StorySpace.urlLink("/gone"),
                ]),
                StorySpace.story("u-about", "about"),
            ], baseURL: "https://example.com/")
            #expect(ContentLinkCheck.findings(in: graph, includeOrphans: false) == [
                Finding(severity: .broken, source: "home", location: .field("gone"), target: "gone", reason: "no story has this slug"),
            ])
            let report = try await Fixture.check(
                [
                    "about/index.html": Fixture.page("<p>about</p>"),
                    "index.html": Fixture.page(
                        ##"<a href="https://example.com/about/">1</a>"##, ##"<a href="HTTPS://EXAMPLE.COM/about">2</a>"##,
                        ##"<a href="/about">3</a>"##, ##"<a href="https://example.com/gone">4</a>"##, ##"<a href="/gone">5</a>"##,
                        ##"<a href="https://example.com.evil/">6</a>"##),
                ],
                options: .init(siteURL: URL(string: "https://example.com/")))
            #expect(report.findings == [
                Fixture.broken("index.html", line: 6, "https://example.com/gone", "no file or folder 'gone'", times: 2),
            ])
        }

        @Test("a site served below a path resolves root-relative links under that path against its own root")
        func siteBelowAPath() async throws {
            let report = try await Fixture.check(
                [
                    "about/index.html": Fixture.page("<p>about</p>"),
                    "404.html": Fixture.page(
                        ##"<a href="/docs/about/">1</a>"##, ##"<a href="/docs/">2</a>"##, ##"<a href="/docs/gone/">3</a>"##),
                    "index.html": Fixture.page("<p>home</p>"),
                ],
                options: .init(siteURL: URL(string: "https://example.com/docs/")))
            #expect(report.findings == [
                Fixture.broken("404.html", line: 5, "/docs/gone/", "no folder 'gone/'"),
            ])
        }
    }
}
