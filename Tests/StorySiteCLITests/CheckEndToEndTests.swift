import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// `storysite check`, driven through the built executable.
    @Suite("storysite check, end to end")
    struct CheckEndToEndTests {
        @Test("the demo site has no broken links and no warnings, as content and as HTML")
        func demoIsClean() async throws {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            let site = try await Executable.run(["check", "--orphans"], in: workspace.url)
            #expect(site.status == 0, "\(site.stdout)\(site.stderr)")
            #expect(site.stdout.range(of: #"^Checked [\d,]+ links in 60 stories and 89 pages: 0 broken, 0 warnings\n$"#, options: .regularExpression) != nil, "\(site.stdout)")
            #expect(!workspace.exists("Output"), "check must not write the site")
            #expect(try await Executable.run(["build"], in: workspace.url).status == 0)
            let folder = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(folder.status == 0, "\(folder.stdout)")
            #expect(folder.stdout.hasSuffix(" 0 broken, 0 warnings\n"))
        }

        @Test("a site deployed below a path checks clean, its 404 page's root-relative links included")
        func demoBelowAPath() async throws {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            let result = try await Executable.run(["check", "--base-url", "https://example.com/docs/"], in: workspace.url)
            #expect(result.status == 0, "\(result.stdout)")
            #expect(result.stdout.hasSuffix(" 0 broken, 0 warnings\n"), "\(result.stdout)")
        }

        @Test("a broken story link and a missing fragment fail the check with where and why")
        func plantedBrokenLinks() async throws {
            let workspace = try BuildEndToEndTests.smallSite(stories: [
                "home.json": BuildEndToEndTests.story("home", uuid: "h", linksTo: "a"),
                "a.json": #"{"name": "A", "uuid": "a", "full_slug": "a", "content": {"component": "page", "_uid": "r", "body": [{"component": "teaser", "_uid": "t", "title": "Gone", "link": {"id": "nope", "linktype": "story", "fieldtype": "multilink", "cached_url": "gone"}}, {"component": "teaser", "_uid": "u", "title": "Home", "link": {"id": "h", "linktype": "story", "fieldtype": "multilink", "cached_url": "home", "anchor": "missing"}}]}}"#,
            ])
            let result = try await Executable.run(["check"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stdout.hasPrefix("a\n  body[0].link: broken: \"nope\": no story has this UUID (nor its cached_url 'gone')\n"), "\(result.stdout)")
            #expect(result.stdout.contains("#missing"), "\(result.stdout)")
            // The broken story link's href falls back to its saved slug, which the HTML check finds broken too.
            #expect(result.stdout.contains("a/index.html\n  line 1: broken: \"../gone\""), "\(result.stdout)")
            #expect(result.stdout.hasSuffix(": 3 broken, 0 warnings\n"), "\(result.stdout)")

            let json = try await Executable.run(["check", "--format", "json"], in: workspace.url)
            #expect(json.status == 1)
            let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let broken = try #require(report?["broken"] as? [[String: Any]])
            #expect(broken.count == 3)
            #expect(broken.contains { $0["source"] as? String == "a" && $0["field"] as? String == "body[0].link" && $0["target"] as? String == "nope" })
            #expect(broken.contains { $0["source"] as? String == "a/index.html" && ($0["target"] as? String)?.hasSuffix("#missing") == true })
        }

        @Test("any folder of HTML can be checked, with GitHub annotations naming the file")
        func folderWithGitHubFormat() async throws {
            let workspace = try TemporaryFolder()
            try workspace.write("site/index.html", "<!doctype html><title>x</title>\n<a href=\"missing.html\">x</a>\n<img src=\"logo.png\" alt=\"\">")
            try workspace.write("site/logo.png", "png")
            let result = try await Executable.run(["check", "site", "--format", "github"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stdout.contains("::error file=site/index.html,line=2::"), "\(result.stdout)")
            #expect(!result.stdout.contains("logo.png"))
        }

        @Test("an unknown format is a usage error")
        func badFormat() async throws {
            let workspace = try TemporaryFolder()
            let result = try await Executable.run(["check", "--format", "xml"], in: workspace.url)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: The value 'xml' is invalid for '--format <format>': expected one of text, json, github, junit\n"))
        }
    }
}
