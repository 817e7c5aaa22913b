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

        @Test("any folder of HTML can be checked, with GitHub annotations naming the file from the working folder")
        func folderWithGitHubFormat() async throws {
            let workspace = try TemporaryFolder()
            try workspace.write("site/index.html", "<!doctype html><title>x</title>\n<a href=\"missing.html\">x</a>\n<img src=\"logo.png\" alt=\"\">")
            try workspace.write("site/logo.png", "png")
            for spelling in ["site", "./site/", workspace.path("site").path] {
                let result = try await Executable.run(["check", spelling, "--format", "github"], in: workspace.url)
                #expect(result.status == 1)
                #expect(result.stdout.hasPrefix("::error file=site/index.html,line=2::"), "\(spelling): \(result.stdout)")
                #expect(!result.stdout.contains("logo.png"))
            }
        }

        @Test("GitHub annotations of a site's check point at the story file and line of a broken field, and at the pages where build writes them")
        func siteWithGitHubFormat() async throws {
            let broken = #"{"component": "teaser", "_uid": "t", "title": "Gone", "link": {"id": "nope", "linktype": "story", "fieldtype": "multilink", "cached_url": ""}}"#
            let workspace = try BuildEndToEndTests.smallSite(stories: [
                "home.json": """
                    {"story": {
                      "name": "Home", "uuid": "h", "full_slug": "home",
                      "content": {"component": "page", "_uid": "r", "body": [
                        {"component": "teaser", "_uid": "a", "title": "A", "link": {"id": "a", "linktype": "story", "fieldtype": "multilink"}},
                        \(broken)
                      ]}
                    }}
                    """,
                "more/list.json": """
                    {"stories": [
                      {"name": "Z", "uuid": "z", "full_slug": "z", "content": {"component": "page", "_uid": "z"}},
                      {"name": "A", "uuid": "a", "full_slug": "a",
                       "content": {"component": "page", "_uid": "r",
                         "body": [
                           \(broken)]}}
                    ]}
                    """,
            ])
            let result = try await Executable.run(["check", "--format", "github", "--orphans"], in: workspace.url)
            #expect(result.status == 1)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("::warning file=Content/more/list.json,line=2::z: warning \"z\": orphan") }, "\(result.stdout)")
            #expect(lines.contains { $0.hasPrefix("::error file=Content/home.json,line=5::home body[1].link: broken link \"nope\"") }, "\(result.stdout)")
            #expect(lines.contains { $0.hasPrefix("::error file=Content/more/list.json,line=6::a body[0].link: broken link \"nope\"") }, "\(result.stdout)")
            #expect(lines.contains { $0.hasPrefix("::warning file=Output/index.html,line=1::") }, "\(result.stdout)")
        }

        @Test("url(…) in style attributes and <style> elements is checked like any link")
        func styleURLs() async throws {
            let workspace = try TemporaryFolder()
            try workspace.write("site/index.html", """
                <!doctype html><title>x</title>
                <div class="hero" style="background-image:url(images/hero.jpg)">x</div>
                <style>
                .card { background: url("images/card.png") }
                </style>
                """)
            try workspace.write("site/images/card.png", "png")
            let result = try await Executable.run(["check", "site"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stdout == """
                index.html
                  line 2: broken: "images/hero.jpg": no file or folder 'images/hero.jpg'
                Checked 2 links in 1 page: 1 broken, 0 warnings

                """, "\(result.stdout)")
        }

        @Test("check --external with no name resolution says so once and counts the links as not checked, not broken")
        func externalWithoutNameResolution() async throws {
            let workspace = try TemporaryFolder()
            try workspace.write("site/index.html", """
                <!doctype html><title>x</title>
                <a href="https://docs.storysite.invalid/a">a</a> <a href="https://cdn.storysite.invalid/b.png">b</a>
                <a href="https://docs.storysite.invalid/a#again">again</a> <a href="index.html">self</a>
                """)
            // A network namespace of its own has no network, whatever the machine has: no
            // lookup leaves it, and none resolves.
            let result = try await Executable.run(["check", "site", "--external"], in: workspace.url, launcher: ["/usr/bin/unshare", "--net"])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout == """
                Checked 1 link in 1 page: 0 broken, 0 warnings; 3 external links not checked: no host name resolves here (no network or DNS?)

                """, "\(result.stdout)")
            let json = try await Executable.run(["check", "site", "--external", "--format", "json"], in: workspace.url, launcher: ["/usr/bin/unshare", "--net"])
            let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let unchecked = (report?["checked"] as? [String: Any])?["unchecked"] as? [String: Any]
            #expect(unchecked?["links"] as? Int == 3, "\(json.stdout)")
            #expect((report?["broken"] as? [Any])?.isEmpty == true)
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
