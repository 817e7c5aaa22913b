import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Folder listings, pagination, collections, tag pages and feeds (issue 14), driven through the
    /// built `storysite` executable in a temporary workspace and checked in the files it writes.
    ///
    /// The workspaces use a small template set that prints what a page sees one fact a line
    /// (`child=<a href="post-1/">Post 1</a>`, `pagination=1/2`, …), so a test reads a page's facts
    /// with ``facts(_:_:in:)`` and compares whole lines; every href is an `<a>`, so
    /// `storysite check Output` proves they lead to files.
    @Suite("storysite build, collections end to end")
    struct CollectionsEndToEndTests {
        typealias Site = BuildEndToEndTests
        typealias Incremental = IncrementalBuildTests

        // MARK: Workspaces

        /// What every page prints: its URL, its listing, its place in the pagination, the
        /// `latest` collection, the story's tags and the folder's feed.
        static let factsTemplate = #"""
            url={{page.url}}
            root={{page.root}}
            canonical={{page.canonical}}
            {{#page.children}}child=<a href="{{href}}">{{name}}</a>
            item={{full_slug}}|{{slug}}|{{uuid}}|{{first_published_at}}|{{published_at}}|{{is_folder}}|{{#tag_list}}{{.}};{{/tag_list}}|{{#tags}}{{name}}>{{href}};{{/tags}}|{{content.component}}
            {{/page.children}}{{#page.pagination}}pagination={{current}}/{{total}}
            {{#prev}}prev=<a href="{{prev}}">prev</a>
            {{/prev}}{{#next}}next=<a href="{{next}}">next</a>
            {{/next}}{{#pages}}pages={{number}}|<a href="{{href}}">{{number}}</a>|{{current}}
            {{/pages}}{{/page.pagination}}{{#collections.latest}}latest=<a href="{{href}}">{{name}}</a>
            {{/collections.latest}}{{#story.tags}}storytag={{name}}{{#href}}|<a href="{{href}}">tag</a>{{/href}}
            {{/story.tags}}{{#page.feed}}feed=<a href="{{page.feed}}">feed</a>
            {{/page.feed}}
            """#

        /// The theme of these tests, by path under `Templates/`.
        static let templates: [String: String] = [
            "layout.mustache": "<html><body>\n{{$main}}{{/main}}</body></html>\n",
            "facts.mustache": factsTemplate,
            "pages/default.mustache":
                "{{<layout}}{{$main}}name={{story.name}}\nbody={{#body}}{{>*component}}{{/body}}\n{{>facts}}{{/main}}{{/layout}}",
            "pages/tag.mustache": "{{<layout}}{{$main}}tag={{tag.name}}|{{tag.slug}}|{{tag.count}}\n{{>facts}}{{/main}}{{/layout}}",
            "pages/tags.mustache":
                "{{<layout}}{{$main}}{{#tags}}tag={{name}}|{{slug}}|<a href=\"{{href}}\">{{count}}</a>\n{{/tags}}{{>facts}}{{/main}}{{/layout}}",
            "404.mustache": "{{>facts}}",
            "components/teaser.mustache": "<a href=\"{{link.href}}\">{{title}}</a>",
        ]

        /// One story file for `Content/`.
        struct StoryFile: Sendable {
            var path: String
            var json: String
        }

        /// A story whose root block (`page`) links to the stories `linksTo` names by UUID, each
        /// with a `teaser` block. Its file is `<full_slug>.json` (`<folder>/index.json` for a
        /// start page).
        static func story(
            _ fullSlug: String, uuid: String, name: String? = nil, position: Int? = nil, firstPublished: String? = nil,
            tags: [String] = [], linksTo targets: [String] = [], content: [String: Any] = [:], raw: [String: Any] = [:]
        ) throws -> StoryFile {
            let slug = fullSlug.split(separator: "/").last.map(String.init) ?? fullSlug
            let body: [[String: Any]] = targets.enumerated().map { index, target in
                ["component": "teaser", "_uid": "t\(index)", "title": target,
                 "link": ["id": target, "linktype": "story", "fieldtype": "multilink", "cached_url": ""]]
            }
            var root: [String: Any] = ["component": "page", "_uid": "r-\(uuid)", "body": body]
            root.merge(content) { $1 }
            var object: [String: Any] = [
                "name": name ?? slug, "uuid": uuid, "full_slug": fullSlug, "slug": slug, "tag_list": tags, "content": root,
            ]
            if let position { object["position"] = position }
            if let firstPublished { object["first_published_at"] = firstPublished }
            object.merge(raw) { $1 }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
            let path = fullSlug.hasSuffix("/") ? fullSlug + "index.json" : fullSlug + ".json"
            return StoryFile(path: path, json: String(decoding: data, as: UTF8.self))
        }

        /// A working folder with this suite's theme, the stories in `Content/`, and `settings`
        /// as `storysite.json`.
        static func workspace(_ stories: [StoryFile], settings: String? = nil) throws -> TemporaryFolder {
            let workspace = try TemporaryFolder(prefix: "storysite-collections")
            for (name, text) in templates { try workspace.write("Templates/" + name, text) }
            try FileManager.default.createDirectory(at: workspace.path("Content"), withIntermediateDirectories: true)
            for story in stories { try workspace.write("Content/" + story.path, story.json) }
            if let settings { try workspace.write("storysite.json", settings) }
            return workspace
        }

        /// The values of the `key=` lines of the file at `path`, in order.
        static func facts(_ key: String, _ path: String, in workspace: TemporaryFolder) throws -> [String] {
            try workspace.read(path).split(separator: "\n", omittingEmptySubsequences: false)
                .filter { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }

        /// A link as the theme prints it.
        static func a(_ href: String, _ text: String) -> String {
            "<a href=\"\(href)\">\(text)</a>"
        }

        /// The files under `folder` (relative paths), the build cache left out.
        static func files(in folder: URL) throws -> Set<String> {
            Set(try Site.allFiles(in: folder).keys)
        }

        /// The lines of `text` that are warnings.
        static func warnings(_ text: String) -> [String] {
            text.split(separator: "\n").map(String.init).filter { $0.contains(": warning: ") }
        }

        /// A blog: `home` links to `blog/`, whose posts `blog/post-1` … `blog/post-<count>` have
        /// positions 1…, dates in January, February, … 2024, and an `excerpt`.
        static func blog(posts count: Int, tags: (Int) -> [String] = { _ in [] }) throws -> [StoryFile] {
            try [story("home", uuid: "home", name: "Home", linksTo: ["blog"]), story("blog/", uuid: "blog", name: "Blog")]
                + (0..<count).map { index in
                    try story(
                        "blog/post-\(index + 1)", uuid: "post-\(index + 1)", name: "Post \(index + 1)", position: index + 1,
                        firstPublished: String(format: "2024-%02d-01T10:00:00.000Z", index + 1), tags: tags(index + 1),
                        content: ["excerpt": "Post \(index + 1) in short."])
                }
        }

        // MARK: Real spaces

        @Test("the php-client space: the article folder, reached from the global story's navigation, lists its articles and each gets a page",
              .enabled(if: SharedFixtures.available("storyblok-fixtures/php-client/stories.json"),
                       "../shared/storyblok-fixtures/php-client/stories.json is absent: a real space's folder listing is not built"))
        func phpClientSpace() async throws {
            let list = try #require(SharedFixtures.url("storyblok-fixtures/php-client/stories.json"))
            let workspace = try Self.workspace([])
            try FileManager.default.copyItem(at: list, to: workspace.path("Content/stories.json"))

            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            // The articles in the order of the content tree: position -30, -20, 0.
            #expect(try Self.facts("child", "Output/article/index.html", in: workspace) == [
                Self.a("article-2/", "Article 2"), Self.a("article-3/", "Article 3"), Self.a("article-1/", "Article 1"),
            ])
            #expect(try Self.facts("item", "Output/article/index.html", in: workspace).last
                == "article/article-1|article-1|26a5991c-511d-41a1-b4e8-bd0199b6dd6f|2018-05-23T12:24:01.547Z|2018-05-23T12:24:01.547Z|false|||article")
            for article in ["article-1", "article-2", "article-3"] {
                #expect(try Self.facts("url", "Output/article/\(article)/index.html", in: workspace) == ["article/\(article)/"])
            }
            #expect(try Self.facts("child", "Output/index.html", in: workspace).isEmpty, "home is no start page")
            #expect(!workspace.exists("Output/global/index.html"), "the global story gets no page")
            // Three blocks and an author nothing links to.
            #expect(result.stderr.contains("Content/: warning: 4 stories are reached by no link; storysite check --orphans lists them"),
                    "\(result.stderr)")

            // Naming both entries gives the same site as letting the global story be found.
            let explicit = try await Executable.run(["build", "--entry", "home", "--entry", "global", "--output", "Explicit"], in: workspace.url)
            #expect(explicit.status == 0, "\(explicit.stderr)")
            #expect(try Site.allFiles(in: workspace.path("Explicit")) == (try Site.allFiles(in: workspace.path("Output"))))
            let check = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }

        @Test("the monoblok export: the is_folder story blog-index lists the five posts of blog-index/ and each gets a page",
              .enabled(if: SharedFixtures.available("storyblok-fixtures/monoblok/has-stories"),
                       "../shared/storyblok-fixtures/monoblok/has-stories is absent: a real export's folder listing is not built"))
        func monoblokExport() async throws {
            let export = try #require(SharedFixtures.url("storyblok-fixtures/monoblok/has-stories"))
            let workspace = try Self.workspace([])
            try FileManager.default.removeItem(at: workspace.path("Content"))
            try FileManager.default.copyItem(at: export, to: workspace.path("Content"))

            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            let posts = [
                ("blog-color-theory", "Color Theory for Teams"), ("blog-design-tips", "Design Tips for Better UX"),
                ("blog-getting-started", "Blog Getting Started"), ("blog-responsive", "Responsive Patterns"),
                ("blog-tech-intro", "Getting Started with Tech"),
            ]
            // No positions in the export: ordered by full_slug.
            #expect(try Self.facts("child", "Output/blog-index/index.html", in: workspace) == posts.map { Self.a("\($0.0)/", $0.1) })
            #expect(try Self.facts("item", "Output/blog-index/index.html", in: workspace).first
                == "blog-index/blog-color-theory|blog-color-theory|7|||false|||blog")
            for (slug, name) in posts {
                let page = "Output/blog-index/\(slug)/index.html"
                #expect(workspace.exists(page), "\(slug) has no page")
                #expect(try Self.facts("name", page, in: workspace) == [name])
            }
            #expect(result.stderr.contains("Content/: warning: 2 stories are reached by no link; storysite check --orphans lists them"),
                    "contact and faq: \(result.stderr)")
            let check = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }

        // MARK: Pagination

        @Test("perPage 3: the start page is page 1, page/2/ exists only for a fourth story, and the sitemap lists it",
              arguments: [0, 1, 3, 4])
        func paginationBoundaries(posts count: Int) async throws {
            let workspace = try Self.workspace(
                try Self.blog(posts: count),
                settings: #"{"baseURL": "https://example.com/", "listings": {"blog/": {"perPage": 3}}}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(" 0 warnings"), "\(result.stdout)\(result.stderr)")

            let first = "Output/blog/index.html"
            let total = count > 3 ? 2 : 1
            #expect(try Self.facts("name", first, in: workspace) == ["Blog"])
            #expect(try Self.facts("child", first, in: workspace) == (0..<min(count, 3)).map { Self.a("post-\($0 + 1)/", "Post \($0 + 1)") })
            #expect(try Self.facts("pagination", first, in: workspace) == ["1/\(total)"])
            #expect(try Self.facts("prev", first, in: workspace).isEmpty)
            #expect(try Self.facts("next", first, in: workspace) == (count > 3 ? [Self.a("page/2/", "next")] : []))
            #expect(try Self.facts("pages", first, in: workspace)
                == ["1|\(Self.a("./", "1"))|true"] + (count > 3 ? ["2|\(Self.a("page/2/", "2"))|false"] : []))
            #expect(try Self.facts("canonical", first, in: workspace) == ["https://example.com/blog/"])

            let second = "Output/blog/page/2/index.html"
            #expect(workspace.exists(second) == (count == 4), "\(count) posts")
            if count == 4 {
                #expect(try Self.facts("name", second, in: workspace) == ["Blog"], "further pages use the start page's template")
                #expect(try Self.facts("url", second, in: workspace) == ["blog/page/2/"])
                #expect(try Self.facts("root", second, in: workspace) == ["../../../"])
                #expect(try Self.facts("canonical", second, in: workspace) == ["https://example.com/blog/page/2/"])
                #expect(try Self.facts("child", second, in: workspace) == [Self.a("../../post-4/", "Post 4")])
                #expect(try Self.facts("pagination", second, in: workspace) == ["2/2"])
                #expect(try Self.facts("prev", second, in: workspace) == [Self.a("../../", "prev")])
                #expect(try Self.facts("next", second, in: workspace).isEmpty)
                #expect(try Self.facts("pages", second, in: workspace)
                    == ["1|\(Self.a("../../", "1"))|false", "2|\(Self.a("./", "2"))|true"])
            }
            #expect(!workspace.exists("Output/blog/page/1"), "page 1 is the start page itself")
            #expect(!workspace.exists("Output/blog/page/3"))
            #expect(workspace.exists("Output/blog/page") == (count == 4))
            for index in 1...max(count, 1) where index <= count {
                #expect(workspace.exists("Output/blog/post-\(index)/index.html"), "a listed story gets a page")
            }

            let sitemap = try workspace.read("Output/sitemap.xml")
            #expect(sitemap.contains("<loc>https://example.com/blog/</loc>"))
            #expect(sitemap.contains("<loc>https://example.com/blog/page/2/</loc>") == (count == 4), "\(sitemap)")
            #expect(!sitemap.contains("page/1/"))
            let check = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }

        @Test("a story at a listing page's path is an error naming both")
        func storyAtListingPage() async throws {
            var stories = try Self.blog(posts: 4)
            stories[0] = try Self.story("home", uuid: "home", name: "Home", linksTo: ["blog", "intruder"])
            stories.append(try Self.story("blog/page/2", uuid: "intruder", name: "Intruder"))
            let workspace = try Self.workspace(stories, settings: #"{"listings": {"blog/": {"perPage": 3}}}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains(
                "blog/page/2/index.html: error: two pages map to this file: 'blog/page/2' and page 2 of the listing of 'blog/'; rename the story"),
                "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        // MARK: Order

        @Test("'first_published_at desc' breaks ties by full_slug and puts stories without the date last, in the listing, the collection and the feed")
        func sortTiesAndMissingValues() async throws {
            // Positions, UUIDs and names all disagree with the expected order.
            let stories = [
                try Self.story("home", uuid: "home", linksTo: ["blog"]),
                try Self.story("blog/", uuid: "blog", name: "Blog"),
                try Self.story("blog/alpha", uuid: "u6", name: "A", position: 1, firstPublished: "2024-03-01T08:00:00.000Z"),
                try Self.story("blog/charlie", uuid: "u5", name: "C", position: 2, firstPublished: "2024-05-01T09:00:00.000Z"),
                try Self.story("blog/bravo", uuid: "u7", name: "B", position: 3, firstPublished: "2024-05-01T09:00:00.000Z"),
                try Self.story("blog/delta", uuid: "u4", name: "D", position: -10),
                try Self.story("blog/echo", uuid: "u3", name: "E", position: 0, firstPublished: "2023-12-31T23:59:00.000Z"),
                try Self.story("blog/foxtrot", uuid: "u2", name: "F", position: -5, raw: ["first_published_at": ""]),
                try Self.story("blog/golf", uuid: "u1", name: "G", position: 5, firstPublished: "2024-04-01 12:00"),
            ]
            let settings = #"""
                {"baseURL": "https://example.com/",
                 "listings": {"blog/": {"sort": "first_published_at desc", "feed": true}},
                 "collections": {"latest": {"folder": "blog/", "sort": "first_published_at desc"}}}
                """#
            let workspace = try Self.workspace(stories, settings: settings)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            let expected = ["bravo", "charlie", "golf", "alpha", "echo", "delta", "foxtrot"]
            #expect(try Self.facts("child", "Output/blog/index.html", in: workspace)
                == expected.map { Self.a("\($0)/", $0.prefix(1).uppercased()) })
            #expect(try Self.facts("latest", "Output/index.html", in: workspace)
                == expected.map { Self.a("blog/\($0)/", $0.prefix(1).uppercased()) })
            let feed = try workspace.read("Output/blog/feed.xml")
            let entries = feed.components(separatedBy: "<entry>").dropFirst().compactMap { entry in
                entry.range(of: #"https://example\.com/blog/[a-z]+/"#, options: .regularExpression).map { String(entry[$0]) }
            }
            #expect(entries == expected.map { "https://example.com/blog/\($0)/" }, "\(feed)")

            // A listing named without its trailing slash is the same listing.
            try workspace.write("storysite.json", settings.replacingOccurrences(of: #""blog/": {"sort""#, with: #""blog": {"sort""#))
            let unslashed = try await Executable.run(["build", "--output", "Unslashed"], in: workspace.url)
            #expect(unslashed.status == 0, "\(unslashed.stderr)")
            #expect(try Site.allFiles(in: workspace.path("Unslashed")) == (try Site.allFiles(in: workspace.path("Output"))))
        }

        @Test("the same time in Storyblok's two date forms is a tie, broken by full_slug")
        func dateFormsTie() async throws {
            let workspace = try Self.workspace([
                try Self.story("home", uuid: "home", linksTo: ["blog"]),
                try Self.story("blog/", uuid: "blog", name: "Blog"),
                try Self.story("blog/a-spaced", uuid: "a", name: "Spaced", firstPublished: "2024-05-01 09:00"),
                try Self.story("blog/b-iso", uuid: "b", name: "ISO", firstPublished: "2024-05-01T09:00:00.000Z"),
                try Self.story("blog/c-older", uuid: "c", name: "Older", firstPublished: "2024-04-30 23:59"),
            ], settings: #"{"listings": {"blog/": {"sort": "first_published_at desc"}}}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            let children = try Self.facts("child", "Output/blog/index.html", in: workspace)
            #expect(children == [Self.a("a-spaced/", "Spaced"), Self.a("b-iso/", "ISO"), Self.a("c-older/", "Older")])
        }

        // MARK: Tags

        @Test("tags that make the same slug share one page; the tags page counts them; hostile names give safe pages or a warning")
        func tagPages() async throws {
            let long = String(repeating: "long tag ", count: 34)
            let stories = [
                try Self.story("home", uuid: "home", linksTo: ["blog"]),
                try Self.story("blog/", uuid: "blog", name: "Blog"),
                try Self.story("blog/a", uuid: "a", name: "A", firstPublished: "2024-01-01T00:00:00.000Z", tags: ["Swift", "Café"]),
                try Self.story("blog/b", uuid: "b", name: "B", firstPublished: "2024-02-01T00:00:00.000Z", tags: ["swift", "iOS", "CAFÉ"]),
                try Self.story("blog/c", uuid: "c", name: "C", tags: ["../x", "<script>alert(1)</script>", "!!!", long]),
            ]
            let workspace = try Self.workspace(stories)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(
                "blog/c: warning: the tag '!!!' has no letter or digit to make a page URL from; it gets no tag page"), "\(result.stderr)")
            #expect(Self.warnings(result.stderr).count == 1, "\(result.stderr)")

            // `Swift` (first in crawl order) and `swift` are one tag.
            let swift = "Output/tags/swift/index.html"
            #expect(try Self.facts("tag", swift, in: workspace) == ["Swift|swift|2"])
            #expect(try Self.facts("child", swift, in: workspace) == [Self.a("../../blog/a/", "A"), Self.a("../../blog/b/", "B")])
            #expect(try Self.facts("url", swift, in: workspace) == ["tags/swift/"])
            #expect(try Self.facts("tag", "Output/tags/café/index.html", in: workspace) == ["Café|café|2"])

            // The page of every tag, by slug.
            let index = try Self.facts("tag", "Output/tags/index.html", in: workspace)
            let longSlug = try #require(index.first { $0.hasPrefix(long + "|") }?.split(separator: "|")[1]).description
            #expect(longSlug.hasPrefix("long-tag-long-tag-") && longSlug.utf8.count <= 100, "\(longSlug)")
            #expect(index == [
                "Café|café|\(Self.a("caf%C3%A9/", "2"))",
                "iOS|ios|\(Self.a("ios/", "1"))",
                "\(long)|\(longSlug)|\(Self.a("\(longSlug)/", "1"))",
                "&lt;script&gt;alert(1)&lt;/script&gt;|script-alert-1-script|\(Self.a("script-alert-1-script/", "1"))",
                "Swift|swift|\(Self.a("swift/", "2"))",
                "../x|x|\(Self.a("x/", "1"))",
            ])
            #expect(try Self.facts("tag", "Output/tags/x/index.html", in: workspace) == ["../x|x|1"])
            #expect(try Self.facts("storytag", "Output/blog/c/index.html", in: workspace) == [
                "../x|\(Self.a("../../tags/x/", "tag"))",
                "&lt;script&gt;alert(1)&lt;/script&gt;|\(Self.a("../../tags/script-alert-1-script/", "tag"))",
                "!!!",
                "\(long)|\(Self.a("../../tags/\(longSlug)/", "tag"))",
            ])
            #expect(try Self.facts("item", swift, in: workspace).first == "blog/a|a|a|2024-01-01T00:00:00.000Z||false|Swift;Café;|Swift>./;Café>../caf%C3%A9/;|page")

            // Every file is inside the output folder, and is one of these.
            #expect(try Self.files(in: workspace.path("Output")) == [
                "404.html", "index.html", "blog/index.html", "blog/a/index.html", "blog/b/index.html", "blog/c/index.html",
                "tags/index.html", "tags/café/index.html", "tags/ios/index.html", "tags/\(longSlug)/index.html",
                "tags/script-alert-1-script/index.html", "tags/swift/index.html", "tags/x/index.html",
            ])
            let everything = try Self.files(in: workspace.url)
            #expect(everything.allSatisfy { ["Content/", "Templates/", "Output/"].contains(where: $0.hasPrefix) }, "\(everything.sorted())")
            for (path, data) in try Site.allFiles(in: workspace.path("Output")) {
                #expect(!String(decoding: data, as: UTF8.self).contains("<script>"), "\(path)")
            }
            let check = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }

        @Test("the tags/ listing orders and paginates each tag's page")
        func tagPagesPaginated() async throws {
            let workspace = try Self.workspace(
                try Self.blog(posts: 3) { $0 == 2 ? ["other"] : ["swift"] },
                settings: #"{"listings": {"tags/": {"sort": "first_published_at desc", "perPage": 1}}}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(" 0 warnings"), "the tags/ listing needs no start page: \(result.stdout)\(result.stderr)")
            #expect(try Self.facts("child", "Output/tags/swift/index.html", in: workspace) == [Self.a("../../blog/post-3/", "Post 3")])
            #expect(try Self.facts("tag", "Output/tags/swift/page/2/index.html", in: workspace) == ["swift|swift|2"])
            #expect(try Self.facts("child", "Output/tags/swift/page/2/index.html", in: workspace) == [Self.a("../../../../blog/post-1/", "Post 1")])
            #expect(try Self.facts("prev", "Output/tags/swift/page/2/index.html", in: workspace) == [Self.a("../../", "prev")])
            #expect(!workspace.exists("Output/tags/swift/page/3") && !workspace.exists("Output/tags/other/page"))
            #expect(!workspace.exists("Output/tags/page"), "the page of every tag is not paginated")
        }

        @Test("a story whose page would be among the tag pages fails the build with an error naming it")
        func storyAmongTagPages() async throws {
            var stories = try Self.blog(posts: 1) { _ in ["x"] }
            stories[0] = try Self.story("home", uuid: "home", name: "Home", linksTo: ["blog", "tx"])
            stories.append(try Self.story("tags/x", uuid: "tx", name: "Tag X story"))
            let workspace = try Self.workspace(stories)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains(
                "tags/x: error: the story's page would be at 'tags/x/', among the tag pages (Templates/pages/tag.mustache exists); rename the story or remove the tag template"),
                "\(result.stderr)")
            #expect(!workspace.exists("Output"))

            // Without tag pages the story is an ordinary page.
            try FileManager.default.removeItem(at: workspace.path("Templates/pages/tag.mustache"))
            try FileManager.default.removeItem(at: workspace.path("Templates/pages/tags.mustache"))
            let plain = try await Executable.run(["build"], in: workspace.url)
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(try Self.facts("name", "Output/tags/x/index.html", in: workspace) == ["Tag X story"])
            #expect(try Self.facts("storytag", "Output/blog/post-1/index.html", in: workspace) == ["x"], "no tag page, so no href")
        }

        // MARK: Collections

        @Test("every page sees collections.latest (limit 2), with hrefs relative to the page")
        func collectionOnEveryPage() async throws {
            var stories = try Self.blog(posts: 4) { _ in ["news"] }
            stories[0] = try Self.story("home", uuid: "home", name: "Home", linksTo: ["blog", "about"])
            stories.append(try Self.story("about", uuid: "about", name: "About"))
            let workspace = try Self.workspace(stories, settings: #"""
                {"baseURL": "https://example.com/docs/",
                 "collections": {"latest": {"folder": "blog/", "sort": "first_published_at desc", "limit": 2}}}
                """#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            let expected: [(page: String, root: String)] = [
                ("index.html", "blog/"), ("about/index.html", "../blog/"), ("blog/index.html", ""),
                ("blog/post-1/index.html", "../"),
                ("tags/index.html", "../blog/"), ("tags/news/index.html", "../../blog/"), ("404.html", "/docs/blog/"),
            ]
            for (page, root) in expected {
                #expect(try Self.facts("latest", "Output/" + page, in: workspace)
                    == [Self.a(root + "post-4/", "Post 4"), Self.a(root + "post-3/", "Post 3")], "\(page)")
            }
            let pages = try Self.files(in: workspace.path("Output")).filter { $0.hasSuffix(".html") }
            #expect(pages.count == 10)
            for page in pages {
                #expect(try Self.facts("latest", "Output/" + page, in: workspace).count == 2, "\(page)")
            }
        }

        // MARK: Feeds

        @Test("with a base URL a listing's feed is written at blog/feed.xml and left out of the sitemap; without one, a warning and no feed")
        func feed() async throws {
            var stories = try Self.blog(posts: 3)
            for index in 2..<stories.count {
                stories[index] = try Self.story(
                    "blog/post-\(index - 1)", uuid: "post-\(index - 1)", name: index == 3 ? "Tips & <Tricks>" : "Post \(index - 1)",
                    firstPublished: "2024-0\(index - 1)-01T10:00:00.000Z",
                    content: ["excerpt": "Read [about us](/about) & more."])
            }
            stories[0] = try Self.story("home", uuid: "home", name: "Home", linksTo: ["blog", "about"])
            stories.append(try Self.story("about", uuid: "about", name: "About"))
            let workspace = try Self.workspace(stories, settings: #"""
                {"site": {"title": "Kestrel"},
                 "listings": {"blog/": {"sort": "first_published_at desc", "feed": true, "feedSize": 2, "summary": "content.excerpt"}}}
                """#)
            let result = try await Executable.run(["build", "--base-url", "https://example.com/"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(" 0 warnings"), "\(result.stdout)\(result.stderr)")
            let feed = try workspace.read("Output/blog/feed.xml")
            #expect(feed.hasPrefix("<?xml"))
            #expect(feed.contains(#"<feed xmlns="http://www.w3.org/2005/Atom">"#))
            #expect(feed.contains(#"<link rel="self" type="application/atom+xml" href="https://example.com/blog/feed.xml"/>"#), "\(feed)")
            #expect(feed.contains("<title>Blog · Kestrel</title>"), "\(feed)")
            #expect(feed.components(separatedBy: "<entry>").count == 3, "feedSize 2: \(feed)")
            #expect(feed.contains("https://example.com/blog/post-3/") && feed.contains("https://example.com/blog/post-2/"))
            #expect(!feed.contains("https://example.com/blog/post-1/"), "\(feed)")
            #expect(feed.contains("https://example.com/about/"), "summaries have absolute links: \(feed)")
            #expect(feed.contains("<title>Tips &amp; &lt;Tricks&gt;</title>"), "text is escaped: \(feed)")
            #expect(!feed.contains(" & "), "text is escaped: \(feed)")
            let sitemap = try workspace.read("Output/sitemap.xml")
            #expect(!sitemap.contains("feed.xml"), "\(sitemap)")
            #expect(sitemap.contains("<loc>https://example.com/blog/</loc>"))
            #expect(try Self.facts("feed", "Output/blog/index.html", in: workspace) == [Self.a("feed.xml", "feed")])
            #expect(try Self.facts("feed", "Output/blog/post-1/index.html", in: workspace) == [Self.a("../feed.xml", "feed")])
            #expect(try Self.facts("feed", "Output/about/index.html", in: workspace).isEmpty)
            let check = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

            let noBase = try await Executable.run(["build", "--output", "NoBase"], in: workspace.url)
            #expect(noBase.status == 0, "\(noBase.stderr)")
            #expect(noBase.stderr.contains(
                "storysite.json: warning: 'listings.blog/': no feed written: feed readers need absolute links; set baseURL or --base-url"),
                "\(noBase.stderr)")
            #expect(!workspace.exists("NoBase/blog/feed.xml"))
            #expect(workspace.exists("NoBase/blog/index.html"))
            let feedLinks = try Self.facts("feed", "NoBase/blog/index.html", in: workspace)
            #expect(feedLinks.isEmpty, "no link to a feed that is not written")
            let noBaseCheck = try await Executable.run(["check", "NoBase"], in: workspace.url)
            #expect(noBaseCheck.status == 0, "\(noBaseCheck.stdout)\(noBaseCheck.stderr)")
        }

        @Test("a story whose page would be where a folder's feed is written is an error naming it, before anything is written")
        func storyAtFeedPath() async throws {
            var stories = try Self.blog(posts: 1)
            stories.append(try Self.story("blog/feed.xml", uuid: "feed-story", name: "Feed story"))
            let workspace = try Self.workspace(stories, settings: #"""
                {"baseURL": "https://example.com/", "listings": {"blog/": {"feed": true}}}
                """#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("'blog/feed.xml'"), "the error names the story: \(result.stderr)")
            #expect(!result.stderr.contains("could not write"), "found while planning, not by the file system: \(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        @Test("a start page marked is_startpage is its folder's page: it lists the folder, continues on further pages, and writes the folder's feed")
        func markedStartPage() async throws {
            let workspace = try Self.workspace([
                try Self.story("home", uuid: "home", linksTo: ["overview"]),
                try Self.story("docs/overview", uuid: "overview", name: "Overview", raw: ["is_startpage": true]),
                try Self.story("docs/a", uuid: "a", name: "A", position: 1),
                try Self.story("docs/b", uuid: "b", name: "B", position: 2),
                try Self.story("docs/c", uuid: "c", name: "C", position: 3),
            ], settings: #"{"baseURL": "https://example.com/", "listings": {"docs/": {"perPage": 2, "feed": true}}}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(" 0 warnings"), "\(result.stdout)\(result.stderr)")
            // As in Storyblok, a marked start page is its folder's page.
            let start = "Output/docs/index.html"
            #expect(!workspace.exists("Output/docs/overview/index.html"))
            #expect(try Self.facts("child", start, in: workspace) == [Self.a("a/", "A"), Self.a("b/", "B")])
            #expect(try Self.facts("pagination", start, in: workspace) == ["1/2"])
            #expect(try Self.facts("next", start, in: workspace) == [Self.a("page/2/", "next")])
            #expect(try Self.facts("child", "Output/docs/page/2/index.html", in: workspace) == [Self.a("../../c/", "C")])
            #expect(try workspace.read("Output/index.html").contains(#"href="docs/""#), "links to the story lead to its folder's page")
            let feeds = try Self.files(in: workspace.path("Output")).filter { $0.hasSuffix("feed.xml") }
            #expect(feeds == ["docs/feed.xml"], "the folder's feed is <folder>feed.xml")
            let check = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }

        // MARK: Warnings and settings

        @Test("a build says how many stories no link reaches, counting those in folders without a start page")
        func unreachedStories() async throws {
            let workspace = try Self.workspace([
                try Self.story("home", uuid: "home", linksTo: ["blog"]),
                try Self.story("blog/", uuid: "blog", name: "Blog"),
                try Self.story("blog/a", uuid: "a"),
                try Self.story("blog/guides/", uuid: "guides"),
                try Self.story("blog/guides/deep", uuid: "deep"),
                try Self.story("blog/archive/old", uuid: "old"),
                try Self.story("drafts/x", uuid: "x"),
                try Self.story("lonely", uuid: "lonely"),
            ])
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.warnings(result.stderr)
                == ["Content/: warning: 3 stories are reached by no link; storysite check --orphans lists them"], "\(result.stderr)")
            #expect(result.stdout.contains(" 1 warning\n"), "\(result.stdout)")
            #expect(workspace.exists("Output/blog/guides/deep/index.html"), "a sub-folder's start page lists its own folder")
            #expect(try Self.facts("child", "Output/blog/index.html", in: workspace) == [Self.a("a/", "a"), Self.a("guides/", "guides")])
            let check = try await Executable.run(["check", "--orphans"], in: workspace.url)
            for slug in ["blog/archive/old", "drafts/x", "lonely"] { #expect(check.stdout.contains("\"\(slug)\": orphan"), "\(check.stdout)") }
            #expect(!check.stdout.contains("\"blog/guides/deep\": orphan"), "\(check.stdout)")
        }

        @Test("bad listings and collections settings exit 64 with the key and what is wrong", arguments: [
            (#"{"listings": {"blog/": {"sort": "popularity desc"}}}"#,
             "storysite.json: error: 'listings.blog/.sort' unknown sort key 'popularity'; use name, slug, full_slug, position, created_at, published_at, first_published_at or content.<field>"),
            (#"{"listings": {"blog/": {"perPage": 0}}}"#, "storysite.json: error: 'listings.blog/.perPage' must be a positive whole number"),
            (#"{"listings": {"blog/": {"perPage": 2.5}}}"#, "storysite.json: error: 'listings.blog/.perPage' must be a positive whole number"),
            (#"{"listings": {"blog/": {"perPage": "5"}}}"#, "storysite.json: error: 'listings.blog/.perPage' must be a positive whole number"),
            (#"{"listings": {"blog/": {"feedSize": -1}}}"#, "storysite.json: error: 'listings.blog/.feedSize' must be a positive whole number"),
            (#"{"collections": {"latest": {"folder": "blog/", "limt": 3}}}"#,
             "storysite.json: error: 'collections.latest.limt' is not a setting (did you mean 'limit'?); known settings: folder, recursive, component, tag, sort, limit"),
            (#"{"collections": {"latest": {"folder": "blog/", "sort": "first_published_at down"}}}"#,
             "storysite.json: error: 'collections.latest.sort' unknown sort direction 'down' after 'first_published_at'; use asc or desc"),
            (#"{"collections": {"latest": {"folder": "blog/", "limit": 0}}}"#,
             "storysite.json: error: 'collections.latest.limit' must be a positive whole number"),
        ])
        func badSettings(settings: String, message: String) async throws {
            let workspace = try Self.workspace(try Self.blog(posts: 2), settings: settings)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        @Test("a listing for a folder whose start page is not reached is a warning naming listings.<folder>")
        func listingForUnreachedFolder() async throws {
            var stories = try Self.blog(posts: 1)
            stories.append(try Self.story("news/", uuid: "news", name: "News"))
            let workspace = try Self.workspace(stories, settings: #"{"listings": {"news": {"perPage": 2}, "blog/": {"perPage": 2}}}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(
                "storysite.json: warning: 'listings.news/': no start page of the folder 'news/' was reached, so nothing shows this listing"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("'listings.blog/'"), "\(result.stderr)")
        }

        // MARK: Incremental builds

        /// A paginated, tagged blog with a feed and a collection of the two oldest posts, so a
        /// new post changes neither the collection nor the pages that show nothing else of it.
        static func incrementalWorkspace() throws -> TemporaryFolder {
            let tags: [Int: [String]] = [1: ["swift"], 2: ["Swift"], 3: ["news"], 4: ["swift", "design"], 5: ["news"]]
            var stories = try blog(posts: 5) { tags[$0] ?? [] }
            stories[0] = try story("home", uuid: "home", name: "Home", linksTo: ["blog", "about"])
            stories.append(try story("about", uuid: "about", name: "About"))
            return try workspace(stories, settings: #"""
                {"baseURL": "https://example.com/",
                 "listings": {"blog/": {"sort": "first_published_at desc", "perPage": 2, "feed": true, "summary": "content.excerpt"}},
                 "collections": {"latest": {"folder": "blog/", "sort": "first_published_at asc", "limit": 2}}}
                """#)
        }

        @Test("incremental rebuilds of a paginated, tagged blog with a feed and a collection match full builds")
        func incrementalBuilds() async throws {
            let workspace = try Self.incrementalWorkspace()
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(workspace.exists("Output/blog/page/3/index.html") && workspace.exists("Output/tags/design/index.html"))
            #expect(workspace.exists("Output/blog/feed.xml"))
            let modified = { (path: String) in try Incremental.modified("Output/" + path, in: workspace) }

            // (a) A new post: the listing, its pages, the feed and the swift tag change; the
            // collection (the two oldest posts) does not, nor do pages that show nothing of it.
            let untouched = ["about/index.html", "blog/post-1/index.html", "tags/news/index.html", "tags/design/index.html"]
            var before = try untouched.map(modified)
            try workspace.write("Content/blog/post-6.json", try Self.story(
                "blog/post-6", uuid: "post-6", name: "Post 6", position: 6, firstPublished: "2024-06-01T10:00:00.000Z", tags: ["swift"]).json)
            let added = try await Executable.run(["build"], in: workspace.url)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(!added.stdout.contains("(0 written,"), "\(added.stdout)")
            #expect(try untouched.map(modified) == before, "pages that do not show the new post keep their modification time")
            #expect(try Self.facts("child", "Output/blog/index.html", in: workspace) == [Self.a("post-6/", "Post 6"), Self.a("post-5/", "Post 5")])
            #expect(try Self.facts("tag", "Output/tags/swift/index.html", in: workspace) == ["swift|swift|4"])
            #expect(try workspace.read("Output/blog/feed.xml").contains("https://example.com/blog/post-6/"))
            #expect(try workspace.read("Output/sitemap.xml").contains("https://example.com/blog/post-6/"))
            try await Incremental.expectSameAsFullBuild(workspace, "a new post")

            // (b) Another sort key: a full build.
            try workspace.write("storysite.json", try workspace.read("storysite.json")
                .replacingOccurrences(of: #""sort": "first_published_at desc""#, with: #""sort": "name""#))
            let resorted = try await Executable.run(["build"], in: workspace.url)
            #expect(resorted.status == 0, "\(resorted.stderr)")
            #expect(try Self.facts("child", "Output/blog/index.html", in: workspace) == [Self.a("post-1/", "Post 1"), Self.a("post-2/", "Post 2")])
            try await Incremental.expectSameAsFullBuild(workspace, "a new sort key")

            // (c) The only story tagged `design` is deleted: its tag page goes, the others update.
            before = try ["about/index.html", "tags/news/index.html"].map(modified)
            try FileManager.default.removeItem(at: workspace.path("Content/blog/post-4.json"))
            let deleted = try await Executable.run(["build"], in: workspace.url)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(!workspace.exists("Output/tags/design"), "\(deleted.stdout)")
            #expect(!workspace.exists("Output/blog/post-4"))
            #expect(try Self.facts("tag", "Output/tags/swift/index.html", in: workspace) == ["swift|swift|3"])
            #expect(!(try Self.facts("tag", "Output/tags/index.html", in: workspace).contains { $0.hasPrefix("design|") }))
            #expect(try ["about/index.html", "tags/news/index.html"].map(modified) == before)
            try await Incremental.expectSameAsFullBuild(workspace, "a deleted tagged story")

            // (d) Nothing changed: nothing written.
            let unchanged = try await Executable.run(["build"], in: workspace.url)
            #expect(unchanged.status == 0, "\(unchanged.stderr)")
            #expect(unchanged.stdout.contains("(0 written, "), "\(unchanged.stdout)")
            #expect(unchanged.stdout.contains(" 0 removed)"), "\(unchanged.stdout)")
        }

        @Test("incremental rebuilds match full builds when posts move between pages, tags change, collected posts change, and the start page goes")
        func incrementalListingEdits() async throws {
            let workspace = try Self.incrementalWorkspace()
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            let edits: [(String, (TemporaryFolder) throws -> Void)] = [
                ("a post dated earlier moves to the last page", { workspace in
                    try Incremental.replace("2024-05-01T10:00:00.000Z", with: "2023-05-01T10:00:00.000Z", in: "Content/blog/post-5.json", of: workspace)
                }),
                ("the stories with a tag write it differently", { workspace in
                    try Incremental.replace(#""news""#, with: #""News""#, in: "Content/blog/post-3.json", of: workspace)
                    try Incremental.replace(#""news""#, with: #""News""#, in: "Content/blog/post-5.json", of: workspace)
                }),
                ("an excerpt the feed shows changes", { workspace in
                    try Incremental.replace("Post 3 in short.", with: "Post 3, shorter.", in: "Content/blog/post-3.json", of: workspace)
                }),
                ("a post the collection shows is renamed", { workspace in
                    try Incremental.replace(#""Post 1""#, with: #""First post""#, in: "Content/blog/post-1.json", of: workspace)
                }),
                ("the only story with a tag changes it", { workspace in
                    try Incremental.replace(#""design""#, with: #""ios""#, in: "Content/blog/post-4.json", of: workspace)
                }),
                ("a new post that the collection shows", { workspace in
                    try workspace.write("Content/blog/post-0.json", try Self.story(
                        "blog/post-0", uuid: "post-0", name: "Post 0", firstPublished: "2022-01-01T10:00:00.000Z", tags: ["news"]).json)
                }),
                ("two posts deleted: six become four, on two pages instead of three", { workspace in
                    try FileManager.default.removeItem(at: workspace.path("Content/blog/post-2.json"))
                    try FileManager.default.removeItem(at: workspace.path("Content/blog/post-4.json"))
                }),
            ]
            for (change, apply) in edits {
                try apply(workspace)
                let rebuilt = try await Executable.run(["build"], in: workspace.url)
                #expect(rebuilt.status == 0, "after \(change): \(rebuilt.stderr)")
                #expect(!rebuilt.stdout.contains("(0 written,"), "after \(change): \(rebuilt.stdout)")
                try await Incremental.expectSameAsFullBuild(workspace, change)
            }
            #expect(try Self.facts("tag", "Output/tags/news/index.html", in: workspace).first?.hasSuffix("|news|3") == true)
            #expect(try Self.facts("tag", "Output/tags/swift/index.html", in: workspace) == ["swift|swift|1"])
            #expect(try Self.facts("latest", "Output/about/index.html", in: workspace)
                == [Self.a("../blog/post-0/", "Post 0"), Self.a("../blog/post-5/", "Post 5")])
            #expect(!workspace.exists("Output/tags/design") && !workspace.exists("Output/tags/ios"), "post-4 had them, and is gone")
            #expect(workspace.exists("Output/blog/page/2/index.html") && !workspace.exists("Output/blog/page/3"))
            #expect(try workspace.read("Output/blog/feed.xml").contains("Post 3, shorter."))

            // The start page goes: its listing pages and feed go with it; the posts the
            // collection shows keep their pages, the others are reached by nothing.
            try FileManager.default.removeItem(at: workspace.path("Content/blog/index.json"))
            let noStart = try await Executable.run(["build"], in: workspace.url)
            #expect(noStart.status == 0, "\(noStart.stderr)")
            #expect(noStart.stderr.contains("Content/: warning: 2 stories are reached by no link"), "\(noStart.stderr)")
            #expect(noStart.stderr.contains("'listings.blog/': no start page of the folder 'blog/' was reached"), "\(noStart.stderr)")
            #expect(!workspace.exists("Output/blog/index.html") && !workspace.exists("Output/blog/page") && !workspace.exists("Output/blog/feed.xml"))
            #expect(workspace.exists("Output/blog/post-0/index.html") && workspace.exists("Output/blog/post-5/index.html"))
            #expect(!workspace.exists("Output/blog/post-3"))
            try await Incremental.expectSameAsFullBuild(workspace, "the start page deleted")
        }
    }
}
