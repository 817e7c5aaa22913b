import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Date formats (`"dates"`, `"timeZone"` in `storysite.json`), driven through the built
    /// executable in a small English and German workspace and checked in the pages it writes.
    @Suite("storysite build, date formats, end to end")
    struct DatesEndToEndTests {
        typealias Collections = CollectionsEndToEndTests
        typealias Site = BuildEndToEndTests

        /// Every page prints its dates one a line (`published=30 March 2024`); listings print
        /// each child's date the way the demo's cards do.
        static let templates: [String: String] = [
            "layout.mustache": "<html lang=\"{{page.lang}}\"><body>\n{{$main}}{{/main}}</body></html>\n",
            "pages/default.mustache": #"""
                {{<layout}}{{$main}}name={{story.name}}
                published={{#date}}{{story.first_published_at}}{{/date}}
                german={{#german}}{{story.first_published_at}}{{/german}}
                short={{#short}}{{story.first_published_at}}{{/short}}
                iso={{#iso}}{{story.first_published_at}}{{/iso}}
                event={{#date}}{{event}}{{/date}}
                eventiso={{#iso}}{{event}}{{/iso}}
                note={{#date}}{{note}}{{/date}}
                {{#page.children}}child=<time datetime="{{first_published_at}}">{{#date}}{{first_published_at}}{{/date}}</time>
                {{/page.children}}{{/main}}{{/layout}}
                """#,
        ]

        static let settings = #"""
            {"languages": ["en", "de"],
             "dates": {"date": "d MMMM yyyy", "german": "d. MMMM yyyy", "short": "dd.MM.yy"},
             "timeZone": "Europe/Berlin"}
            """#

        /// `home` (first published 30 March 2024, 08:00 UTC; an `event` datetime field on New
        /// Year's Eve, 23:30 UTC) links to `blog/`, which lists one post (first published
        /// 1 July 2024, 22:30 UTC: 2 July in Berlin). `about` has a `note` that is not a date.
        static func space() throws -> [Collections.StoryFile] {
            [
                try Collections.story(
                    "home", uuid: "home", name: "Home", firstPublished: "2024-03-30T08:00:00.000Z", linksTo: ["blog", "about"],
                    content: ["event": "2024-12-31 23:30"]),
                try Collections.story("blog/", uuid: "blog", name: "Blog"),
                try Collections.story("blog/post", uuid: "post", name: "Post", firstPublished: "2024-07-01T22:30:00.000Z"),
                try Collections.story(
                    "about", uuid: "about", name: "About", content: ["note": "soon"],
                    raw: ["translated_slugs": [["path": "ueber-uns", "name": "Über uns", "lang": "de"]]]),
            ]
        }

        static func workspace(settings: String = Self.settings) throws -> TemporaryFolder {
            let workspace = try TemporaryFolder(prefix: "storysite-dates")
            for (name, text) in templates { try workspace.write("Templates/" + name, text) }
            try FileManager.default.createDirectory(at: workspace.path("Content"), withIntermediateDirectories: true)
            for story in try space() { try workspace.write("Content/" + story.path, story.json) }
            try workspace.write("storysite.json", settings)
            return workspace
        }

        static func fact(_ key: String, _ path: String, in workspace: TemporaryFolder) throws -> String? {
            try Collections.facts(key, path, in: workspace).first
        }

        @Test("each page writes its dates in its language and the site's time zone")
        func languagesAndTimeZone() async throws {
            let workspace = try Self.workspace()
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")

            let english: [(String, String)] = [
                ("published", "30 March 2024"), ("german", "30. March 2024"), ("short", "30.03.24"),
                ("iso", "2024-03-30T09:00:00+01:00"), ("event", "1 January 2025"), ("eventiso", "2025-01-01T00:30:00+01:00"),
            ]
            for (key, value) in english { #expect(try Self.fact(key, "Output/index.html", in: workspace) == value, "\(key)") }
            let german: [(String, String)] = [
                ("published", "30 März 2024"), ("german", "30. März 2024"), ("short", "30.03.24"),
                ("iso", "2024-03-30T09:00:00+01:00"), ("event", "1 Januar 2025"), ("eventiso", "2025-01-01T00:30:00+01:00"),
            ]
            for (key, value) in german { #expect(try Self.fact(key, "Output/de/index.html", in: workspace) == value, "de \(key)") }

            // A card's date: 22:30 UTC on 1 July is 2 July in Berlin; the datetime stays as stored.
            #expect(try Collections.facts("child", "Output/blog/index.html", in: workspace)
                == [#"<time datetime="2024-07-01T22:30:00.000Z">2 July 2024</time>"#])
            #expect(try Collections.facts("child", "Output/de/blog/index.html", in: workspace)
                == [#"<time datetime="2024-07-01T22:30:00.000Z">2 Juli 2024</time>"#])
            // A story never published has no date: the section writes nothing.
            #expect(try Self.fact("published", "Output/blog/index.html", in: workspace) == "")
        }

        @Test("text that is not a date is shown as it is, with a warning naming the story and the section")
        func notADate() async throws {
            let workspace = try Self.workspace()
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.fact("note", "Output/about/index.html", in: workspace) == "soon")
            #expect(try Self.fact("note", "Output/de/ueber-uns/index.html", in: workspace) == "soon")
            // Each language's page reports it, as every problem a page's render finds (one line each).
            let warnings = Collections.warnings(result.stderr)
            #expect(!warnings.isEmpty && warnings.allSatisfy { $0 == "about: {{#date}}{{note}}{{/date}}: warning: 'soon' is not a date, so it is shown as it is; dates look like 2024-03-30T08:00:00.000Z or 2024-03-30 08:00" }, "\(result.stderr)")
        }

        @Test("without dates: the built-in date (d MMM yyyy) and iso, in UTC")
        func builtIns() async throws {
            let workspace = try Self.workspace(settings: #"{"languages": ["en", "de"]}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.fact("published", "Output/index.html", in: workspace) == "30 Mar 2024")
            #expect(try Self.fact("published", "Output/de/index.html", in: workspace) == "30 März 2024")
            #expect(try Self.fact("iso", "Output/de/index.html", in: workspace) == "2024-03-30T08:00:00Z")
            #expect(try Self.fact("event", "Output/index.html", in: workspace) == "31 Dec 2024")
            // Templates that use a format storysite.json does not name see nothing there.
            #expect(try Self.fact("short", "Output/index.html", in: workspace) == "")
        }

        @Test("changing a format or the time zone renders the pages again; an unchanged rebuild writes nothing")
        func buildKey() async throws {
            let workspace = try Self.workspace()
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            let unchanged = try await Executable.run(["build"], in: workspace.url)
            #expect(unchanged.status == 0, "\(unchanged.stderr)")
            #expect(unchanged.stdout.contains("(0 written, "), "\(unchanged.stdout)")
            #expect(try Self.fact("published", "Output/index.html", in: workspace) == "30 March 2024")

            try workspace.write("storysite.json", Self.settings.replacingOccurrences(of: #""date": "d MMMM yyyy""#, with: #""date": "MMMM d, yyyy""#))
            let reformatted = try await Executable.run(["build"], in: workspace.url)
            #expect(reformatted.status == 0, "\(reformatted.stderr)")
            #expect(!reformatted.stdout.contains("(0 written, "), "\(reformatted.stdout)")
            #expect(try Self.fact("published", "Output/index.html", in: workspace) == "March 30, 2024")
            #expect(try Self.fact("published", "Output/de/index.html", in: workspace) == "März 30, 2024")

            try workspace.write("storysite.json", Self.settings.replacingOccurrences(of: "Europe/Berlin", with: "America/New_York"))
            let rezoned = try await Executable.run(["build"], in: workspace.url)
            #expect(rezoned.status == 0, "\(rezoned.stderr)")
            #expect(try Self.fact("iso", "Output/index.html", in: workspace) == "2024-03-30T04:00:00-04:00")
            #expect(try Self.fact("event", "Output/index.html", in: workspace) == "31 December 2024")
        }

        @Test("bad dates or time zones exit 64 naming the key, and write nothing", arguments: [
            (#"{"dates": {"page": "d MMMM yyyy"}}"#,
             "storysite.json: error: 'dates.page' would hide the 'page' every template sees; name the format otherwise (taken: page, site, global, story, markdown, collections, tags, tag)"),
            (#"{"dates": {"short": ""}}"#, #"storysite.json: error: 'dates.short' must be a non-empty ICU date pattern, such as "d MMMM yyyy""#),
            (#"{"dates": "d MMMM yyyy"}"#,
             #"storysite.json: error: 'dates' must be an object of format names and ICU date patterns, such as {"date": "d MMMM yyyy"}"#),
            (#"{"timeZone": "Mars/Olympus_Mons"}"#,
             "storysite.json: error: 'timeZone' 'Mars/Olympus_Mons' is not a time zone; use an IANA name, such as Europe/Berlin, America/New_York or UTC"),
        ])
        func badSettings(settings: String, message: String) async throws {
            let workspace = try Self.workspace(settings: settings)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        @Test("the demo's cards show formatted dates in English and German; the demo checks clean")
        func demo() async throws {
            let workspace = try Site.demoWorkspace()
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(" 0 warnings"), "\(result.stdout)\(result.stderr)")
            let english = try workspace.read("Output/blog/index.html")
            let german = try workspace.read("Output/de/blog/index.html")
            #expect(english.contains(#"<time datetime="2025-03-18T08:00:00.000Z">18 Mar 2025</time>"#), "\(english)")
            #expect(german.contains(#"<time datetime="2025-03-18T08:00:00.000Z">18 März 2025</time>"#), "\(german)")
            let post = try workspace.read("Output/de/blog/stockpot-2-multiple-locations/index.html")
            #expect(post.contains(#"<time datetime="2025-03-18T08:00:00Z">18 März 2025</time>"#))
            let check = try await Executable.run(["check"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }
    }
}
