import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Slugs with characters that mean something in a URL (issue 18, failure 14): every URL made of
    /// a page's path (hrefs, `page.url`, `page.canonical`, the sitemap, feeds) is percent-encoded
    /// alike, so the site's own links lead to its pages.
    @Suite("storysite build, URLs of odd slugs")
    struct SlugURLEndToEndTests {
        /// Slug, and its path as a URL.
        static let slugs = [
            ("a#b", "a%23b"), ("c?d", "c%3Fd"), ("e%2fF", "e%252fF"), ("g h", "g%20h"), ("%2e%2e", "%252e%252e"),
            ("blog/caf\u{E9}", "blog/caf%C3%A9"),
        ]

        @Test("hrefs, canonical links, the sitemap and the feed percent-encode the path, and check finds every page")
        func encodedEverywhere() async throws {
            var stories: [String: String] = [:]
            let teasers = Self.slugs.indices.map { index in
                #"{"component": "teaser", "_uid": "t\#(index)", "title": "T", "link": {"id": "u\#(index)", "linktype": "story", "fieldtype": "multilink", "cached_url": ""}}"#
            }
            stories["home.json"] = #"{"name": "Home", "uuid": "h", "full_slug": "home", "content": {"component": "page", "_uid": "r", "body": [\#(teasers.joined(separator: ","))]}}"#
            for (index, (slug, _)) in Self.slugs.enumerated() {
                let json = BuildEndToEndTests.story(slug, uuid: "u\(index)", linksTo: "h")
                stories["s\(index).json"] = json.replacingOccurrences(of: "\"uuid\"", with: "\"first_published_at\": \"2024-03-30T08:00:00Z\", \"uuid\"")
            }
            stories["blog.json"] = #"{"name": "Blog", "uuid": "blog", "full_slug": "blog/", "is_startpage": true, "content": {"component": "page", "_uid": "r", "body": []}}"#
            let workspace = try BuildEndToEndTests.smallSite(stories: stories)
            try workspace.write(
                "Templates/layout.mustache",
                "<html><head><link rel=\"canonical\" href=\"{{page.canonical}}\"></head><body data-url=\"{{page.url}}\">{{$main}}{{/main}}</body></html>\n")
            try workspace.write("storysite.json", #"{"listings": {"blog/": {"feed": true}}}"#)
            let build = try await Executable.run(["build", "--base-url", "https://example.com/", "--entry", "home", "--entry", "blog/"], in: workspace.url)
            #expect(build.status == 0, "\(build.stderr)")

            let home = try workspace.read("Output/index.html")
            let sitemap = try workspace.read("Output/sitemap.xml")
            for (slug, path) in Self.slugs {
                #expect(home.contains("href=\"\(path)/\""), "\(slug): \(home)")
                #expect(sitemap.contains("<loc>https://example.com/\(path)/</loc>"), "\(slug): \(sitemap)")
                let page = try workspace.read("Output/\(slug)/index.html")
                #expect(page.contains("<link rel=\"canonical\" href=\"https://example.com/\(path)/\">"), "\(slug): \(page)")
                #expect(page.contains("data-url=\"\(path)/\""), "\(slug): \(page)")
            }
            let feed = try workspace.read("Output/blog/feed.xml")
            #expect(feed.contains("<id>https://example.com/blog/caf%C3%A9/</id>"), "\(feed)")
            #expect(!workspace.exists("index.html"), "'%2e%2e' must never be read as '..'")

            let check = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)")
            #expect(check.stdout.hasSuffix(" 0 broken, 0 warnings\n"), "\(check.stdout)")
        }
    }
}
