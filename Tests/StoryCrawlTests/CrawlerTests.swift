import Foundation
import StoryModel
import StorySource
import Testing
import TestSupport
@testable import StoryCrawl

extension StoryCrawlTests {
    @Suite("Crawler")
    struct CrawlerTests {
        /// home → a, b; a → c; b → c, d; c → home; d → d (self link).
        private func smallSpace() throws -> [Story] {
            [
                try story("u-home", "home", fields: #""body": [\#(linkBlock(storyLink("u-a"))), \#(linkBlock(storyLink("u-b")))]"#),
                try story("u-a", "a", fields: #""link": \#(storyLink("u-c"))"#),
                try story("u-b", "b", fields: #""links": ["u-c"], "text": "[c](/c) and [d](/d)""#),
                try story("u-c", "c", fields: #""back": \#(storyLink("u-home", cached: "home"))"#),
                try story("u-d", "d", fields: #""me": \#(storyLink("u-d", cached: "d"))"#),
                try story("u-orphan", "lost", fields: #""to": \#(storyLink("u-home"))"#),
            ]
        }

        @Test("visits breadth-first by level, each story once, through cycles and self links")
        func breadthFirst() async throws {
            let graph = try await Crawler(source: RecordingSource(try smallSpace())).crawl()
            #expect(graph.stories.map(\.story.fullSlug) == ["home", "a", "b", "c", "d"])
            #expect(graph.stories.map(\.depth) == [0, 1, 1, 2, 2])
            #expect(graph.stories.map(\.firstLinkedFrom) == [nil, "u-home", "u-home", "u-a", "u-b"])
            #expect(graph.edges.count == 7)
            #expect(graph.edges(from: "u-b").map(\.target) == ["u-c", "u-d"])
            #expect(graph.orphans.map(\.uuid) == ["u-orphan"])
            #expect(graph.unresolvedEdges.isEmpty)
        }

        @Test("asks the source one batch per level, never for a story it already has")
        func batches() async throws {
            let source = RecordingSource(try smallSpace())
            _ = try await Crawler(source: source).crawl()
            // Level 2 asks for `c` by slug too: which story has that slug is not known before the batch.
            #expect(await source.batches == [[.slug("home")], [.uuid("u-a"), .uuid("u-b")], [.uuid("u-c"), .slug("c"), .slug("d")]])
        }

        @Test("a missing target becomes an unresolved edge with its field path, and the crawl goes on")
        func missingTargets() async throws {
            let source = RecordingSource([
                try story("u-home", "home", fields: #"""
                    "body": [{"_uid": "1", "component": "grid", "columns": [\#(linkBlock(storyLink("3a526768-1d22-447e-9ddd-f4158a035edd", cached: "gone")))]}],
                    "text": {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": "x",
                      "marks": [{"type": "link", "attrs": {"uuid": null, "href": "/nowhere", "linktype": "story"}}]}]}]},
                    "md": "[a](/a#top)"
                    """#),
                try story("u-a", "a"),
            ])
            let graph = try await Crawler(source: source).crawl()
            #expect(graph.stories.map(\.story.uuid) == ["u-home", "u-a"])
            #expect(graph.unresolvedEdges.map { "\($0.fieldPath) \($0.kind.rawValue) \($0.reference)" } == [
                "body[0].columns[0].link multilink 3a526768-1d22-447e-9ddd-f4158a035edd",
                "text.content[0].content[0].marks[0] richtext nowhere",
            ])
            #expect(graph.edges.last == LinkGraph.Edge(
                source: "u-home", fieldPath: "md", kind: .markdown, reference: .slug("a"), anchor: "top", target: "u-a"))
            // The unknown UUID falls back to its cached slug in a second batch, asked once.
            #expect(await source.batches.count == 3)
        }

        @Test("resolves a multilink id as a UUID, then a numeric id, then its cached slug")
        func fallbacks() async throws {
            let graph = try await Crawler(source: RecordingSource([
                try story("u-home", "home", id: 1, fields: #""a": \#(storyLink("2")), "b": \#(storyLink("u-old", cached: "blog/")), "c": \#(storyLink("u-c", cached: "c"))"#),
                try story("u-two", "two", id: 2),
                try story("u-blog", "blog/", id: 3),
                try story("u-c", "c", id: 4),
            ])).crawl()
            #expect(graph.edges.map(\.target) == ["u-two", "u-blog", "u-c"])
        }

        @Test("reports stale links: resolved by UUID but saved with an old slug")
        func staleLinks() async throws {
            let graph = try await Crawler(source: RecordingSource([
                try story("u-home", "home", fields: #"""
                    "a": \#(storyLink("u-post", cached: "blog/old-name")), "b": \#(storyLink("u-post", cached: "/blog/post/")),
                    "c": \#(storyLink("u-folder", cached: "docs")), "d": "[x](/blog/old-name)"
                    """#),
                try story("u-post", "blog/post"),
                try story("u-folder", "docs/"),
            ])).crawl()
            #expect(graph.staleEdges.map(\.fieldPath) == ["a"])
            #expect(graph.unresolvedEdges.map(\.fieldPath) == ["d"])
        }

        @Test("uses a story that arrives with its link instead of fetching it again")
        func embeddedStories() async throws {
            let embedded = #"{"uuid": "u-rel", "full_slug": "rel", "content": {"component": "page", "next": \#(storyLink("u-end"))}}"#
            let source = RecordingSource([
                try story("u-home", "home", fields: #""related": [\#(embedded)], "again": \#(storyLink("", cached: "rel"))"#),
                try story("u-end", "end"),
            ])
            let graph = try await Crawler(source: source).crawl()
            #expect(graph.stories.map(\.story.uuid) == ["u-home", "u-rel", "u-end"])
            #expect(graph.edges.map(\.target) == ["u-rel", "u-rel", "u-end"])
            let asked = await source.batches.flatMap { $0 }
            #expect(asked == [.slug("home"), .uuid("u-end")])
        }

        @Test("starts from several entries, by slug or UUID, each once")
        func entries() async throws {
            let source = RecordingSource(try smallSpace())
            let graph = try await Crawler(source: source, entries: ["/d", "home", "u-d", "a/"]).crawl()
            #expect(graph.stories.map(\.story.fullSlug) == ["d", "home", "a", "b", "c"])
            #expect(graph.stories.map(\.depth) == [0, 0, 0, 1, 1])
        }

        @Test("a link to the site root reaches the first entry, given by slug or UUID, whatever its slug")
        func rootLinks() async throws {
            let space = [
                try story("u-en", "en/home", fields: #""md": "[about](/en/about)""#),
                try story("u-about", "en/about", fields: #"""
                    "md": "[home](/) and [top](/#top)",
                    "link": {"fieldtype": "multilink", "linktype": "url", "url": "/", "id": "", "cached_url": "/"},
                    "up": "[up](../)"
                    """#),
                try story("u-home", "home"),
            ]
            for entry in ["en/home", "u-en"] {
                let graph = try await Crawler(source: RecordingSource(space), entries: [entry]).crawl()
                #expect(graph.root?.uuid == "u-en")
                #expect(graph.rootSlug == "en/home")
                #expect(graph.unresolvedEdges.isEmpty, "entry \(entry)")
                #expect(graph.edges(from: "u-about").map { "\($0.reference) \($0.target ?? "-")" } == [
                    "en/home u-en", "en/home u-en", "en/home u-en", "en/home u-en",
                ], "entry \(entry)")
                #expect(graph.stories.map(\.story.uuid) == ["u-en", "u-about"], "entry \(entry)")
            }
            #expect(LinkGraph(stories: [], edges: []).rootSlug == "home")
        }

        @Test("a missing entry is an error naming it and the source")
        func missingEntry() async throws {
            let folder = try TemporaryFolder()
            try folder.write("about.json", storyText("u-about", "about"))
            let source = try LocalFolderSource(folder: folder.url, displayPath: "Content")
            await #expect(throws: CrawlError.entriesNotFound(["home"], source: "Content/")) {
                try await Crawler(source: source).crawl()
            }
            let error = await #expect(throws: CrawlError.self) {
                try await Crawler(source: source, entries: ["home", "about", "global"]).crawl()
            }
            #expect(error?.description == "entry story 'home' not found in Content/\nentry story 'global' not found in Content/")
        }

        @Test("a source that cannot list its stories gives no orphans")
        func noListing() async throws {
            let graph = try await Crawler(source: RecordingSource(try smallSpace(), listsStories: false)).crawl()
            #expect(graph.orphans.isEmpty)
        }

        @Test("crawls a folder in every layout, following every kind of reference")
        func folderLayouts() async throws {
            let folder = try TemporaryFolder()
            try folder.write("home.json", #"{"story": \#(storyText("u-home", "home", fields: #""nav": [\#(linkBlock(storyLink("u-docs", cached: "docs/")))]"#))}"#)
            try folder.write("docs/docs_10.json", storyText("u-docs", "docs/", id: 10, fields: #""text": "[setup](./guides/setup)""#))
            try folder.write("docs/guides/list.json", #"""
                {"stories": [\#(storyText("u-setup", "docs/guides/setup", fields: #""see": "[faq](../faq#q1)", "tags": ["0b87cb6f-b089-4dd2-a1e3-87f9427d0700"]"#)),
                             \#(storyText("u-faq", "docs/faq"))]}
                """#)
            try folder.write("tags/web.json", storyText("0b87cb6f-b089-4dd2-a1e3-87f9427d0700", "tags/web"))
            let graph = try await Crawler(source: try LocalFolderSource(folder: folder.url)).crawl()
            #expect(graph.stories.map(\.story.fullSlug) == ["home", "docs/", "docs/guides/setup", "docs/faq", "tags/web"])
            #expect(graph.edges.map(\.kind) == [.multilink, .markdown, .listing, .markdown, .relation])
            #expect(graph.edges[3].anchor == "q1")
            #expect(graph.orphans.isEmpty)
        }

        @Test("a folder's references resolve at once, to the same graph as asking batch by batch")
        func inMemoryMatchesBatches() async throws {
            // Fallbacks (numeric id, cached slug), stale and missing links, slugs, a relation, a
            // story embedded in its link (which that level resolves in batches), cycles.
            let embedded = #"{"uuid": "u-rel", "full_slug": "rel", "content": {"component": "page", "next": \#(storyLink("u-end"))}}"#
            let texts = [
                storyText("u-home", "home", id: 1, fields: #"""
                    "a": \#(storyLink("2")), "b": \#(storyLink("u-old", cached: "blog/")), "c": \#(storyLink("u-c", cached: "old-c")),
                    "gone": \#(storyLink("3a526768-1d22-447e-9ddd-f4158a035edd", cached: "nowhere")), "md": "[c](/c) [x](/missing)"
                    """#),
                storyText("u-two", "two", id: 2, fields: #""back": \#(storyLink("u-home", cached: "home")), "rel": "0b87cb6f-b089-4dd2-a1e3-87f9427d0700""#),
                storyText("u-blog", "blog/", id: 3, fields: #""related": [\#(embedded)], "again": \#(storyLink("", cached: "rel"))"#),
                storyText("u-c", "c", id: 4, fields: #""gone": \#(storyLink("3a526768-1d22-447e-9ddd-f4158a035edd", cached: "nowhere")), "up": "[b](/blog)""#),
                storyText("0b87cb6f-b089-4dd2-a1e3-87f9427d0700", "tags/web"),
                storyText("u-end", "end", fields: #""md": "[two](/two)""#),
                storyText("u-lost", "lost"),
            ]
            let folder = try TemporaryFolder()
            for (index, text) in texts.enumerated() { try folder.write("\(index).json", text) }
            let stories = try texts.map { try Story(json: try #require(try JSONValue(parsing: $0).objectValue)) }

            let atOnce = try await Crawler(source: try LocalFolderSource(folder: folder.url)).crawl()
            let inBatches = try await Crawler(source: RecordingSource(stories)).crawl()
            #expect(atOnce.stories.map(\.story.uuid) == ["u-home", "u-two", "u-blog", "u-c", "0b87cb6f-b089-4dd2-a1e3-87f9427d0700", "u-rel", "u-end"])
            #expect(atOnce.stories.map(\.story.uuid) == inBatches.stories.map(\.story.uuid))
            #expect(atOnce.stories.map(\.depth) == inBatches.stories.map(\.depth))
            #expect(atOnce.stories.map(\.firstLinkedFrom) == inBatches.stories.map(\.firstLinkedFrom))
            #expect(atOnce.edges == inBatches.edges)
            #expect(atOnce.unresolvedEdges.count == 3)
            #expect(atOnce.staleEdges.map(\.fieldPath) == ["c"])
            #expect(atOnce.orphans.map(\.uuid) == ["u-lost"])
        }

        @Test("gives the same order and graph whatever the parallelism")
        func deterministic() async throws {
            let folder = try TemporaryFolder()
            let count = 400
            for index in 0..<count {
                let targets = [(index * 7 + 1) % count, (index * 13 + 5) % count, index / 2]
                let fields = #""links": [\#(targets.map { linkBlock(storyLink("u-\($0)")) }.joined(separator: ", "))], "md": "[p](/p/\#((index * 31) % count))""#
                try folder.write("p/\(index % 10)/\(index).json", storyText("u-\(index)", index == 0 ? "home" : "p/\(index)", fields: fields))
            }
            let source = try LocalFolderSource(folder: folder.url)
            let first = try await Crawler(source: source).crawl()
            #expect(first.stories.count > 100)
            for _ in 0..<3 {
                let again = try await Crawler(source: try LocalFolderSource(folder: folder.url)).crawl()
                #expect(again.stories.map(\.story.uuid) == first.stories.map(\.story.uuid))
                #expect(again.stories.map(\.firstLinkedFrom) == first.stories.map(\.firstLinkedFrom))
                #expect(again.edges == first.edges)
                #expect(again.orphans.map(\.uuid) == first.orphans.map(\.uuid))
            }
        }

        @Test("deeply nested content neither overflows a worker thread's stack nor hides its links")
        func deepNesting() async throws {
            let folder = try TemporaryFolder()
            let depth = 240
            let opening = String(repeating: #"{"_uid": "n", "component": "box", "inner": ["#, count: depth)
            let closing = String(repeating: "]}", count: depth)
            try folder.write("home.json", storyText("u-home", "home", fields: #""deep": [\#(opening)\#(linkBlock(storyLink("u-end")))\#(closing)]"#))
            try folder.write("end.json", storyText("u-end", "end"))
            let graph = try await Crawler(source: try LocalFolderSource(folder: folder.url)).crawl()
            #expect(graph.stories.map(\.story.uuid) == ["u-home", "u-end"])
            #expect(graph.edges.first?.fieldPath == "deep[0]" + String(repeating: ".inner[0]", count: depth) + ".link")
        }

        @Test("crawls the monoblok export from home to the stories it links to, and the posts its blog folder lists",
              .enabled(if: SharedFixtures.available("storyblok-fixtures/monoblok/has-stories"),
                       "../shared/storyblok-fixtures/monoblok/has-stories is absent: crawling a real export is not checked"))
        func monoblok() async throws {
            let folder = try #require(SharedFixtures.url("storyblok-fixtures/monoblok/has-stories"))
            let graph = try await Crawler(source: try LocalFolderSource(folder: folder)).crawl()
            // home links to about and blog-index (an `is_folder` story); blog-index lists its five posts.
            #expect(graph.stories.map(\.story.fullSlug) == [
                "home", "about", "blog-index", "blog-index/blog-color-theory", "blog-index/blog-design-tips",
                "blog-index/blog-getting-started", "blog-index/blog-responsive", "blog-index/blog-tech-intro",
            ])
            #expect(graph.edges.filter { $0.kind != .listing }.map { "\($0.fieldPath) → \($0.target ?? "?")" } == [
                "body[0].link → 2", "body[1].link → 3", "body[0].link → 1",
                "related_post → 5", "related_post → 4", "related_post → 4", "related_post → 7", "related_post → 5",
            ])
            #expect(graph.edges(from: "3").map(\.kind) == Array(repeating: .listing, count: 5))
            #expect(graph.backlinks(to: "6").isEmpty, "a listing is no backlink")
            #expect(graph.backlinks(to: "7") == ["8"])
            #expect(graph.unresolvedEdges.isEmpty && graph.staleEdges.isEmpty)
            #expect(Set(graph.orphans.map(\.fullSlug)) == ["contact", "faq"])
        }

        @Test("crawls the real API list from home and global, and the articles the article folder lists",
              .enabled(if: SharedFixtures.available("storyblok-fixtures/php-client/stories.json"),
                       "../shared/storyblok-fixtures/php-client/stories.json is absent: crawling a real space is not checked"))
        func phpClientSpace() async throws {
            let list = try #require(SharedFixtures.url("storyblok-fixtures/php-client/stories.json"))
            let folder = try TemporaryFolder()
            try FileManager.default.copyItem(at: list, to: folder.path("stories.json"))
            let graph = try await Crawler(source: try LocalFolderSource(folder: folder.url), entries: ["home", "global"]).crawl()
            #expect(graph.stories.map(\.story.fullSlug).prefix(6) == ["home", "global", "article/", "article/article-1", "article/article-2", "article/article-3"])
            #expect(graph.edges(from: graph.story(for: .slug("article/"))!.uuid).filter { $0.kind == .listing }.count == 3)
            #expect(graph.stories.contains { $0.story.fullSlug == "authors/john-doe" }, "articles relate to their authors")
            #expect(!graph.orphans.contains { $0.fullSlug.hasPrefix("article/") })
        }

        @Test("a start page lists the stories directly in its folder and its sub-folders' start pages, not deeper ones")
        func folderListing() async throws {
            let space = [
                try story("u-home", "home", fields: #""link": \#(storyLink("u-docs"))"#),
                try story("u-docs", "docs/"),
                try story("u-intro", "docs/intro"),
                try story("u-setup", "docs/setup"),
                try story("u-guides", "docs/guides/"),
                try story("u-deep", "docs/guides/deep"),
                try story("u-other", "blog/post"),
            ]
            for source in [RecordingSource(space) as any StorySource, try memorySource(space)] {
                let graph = try await Crawler(source: source).crawl()
                #expect(graph.edges(from: "u-docs").map { "\($0.kind.rawValue) \($0.target ?? "?")" } == [
                    "listing u-guides", "listing u-intro", "listing u-setup",
                ])
                #expect(graph.edges(from: "u-guides").map(\.target) == ["u-deep"])
                #expect(graph.stories.map(\.story.uuid) == ["u-home", "u-docs", "u-guides", "u-intro", "u-setup", "u-deep"])
                #expect(graph.backlinks(to: "u-intro").isEmpty && graph.backlinks(to: "u-docs") == ["u-home"])
                #expect(graph.orphans.map(\.uuid) == ["u-other"])
            }
        }

        @Test("a collection's stories are entries, chosen by folder, component, tag, order and limit")
        func collections() async throws {
            func post(_ uuid: String, _ slug: String, date: String, component: String = "page", tags: [String] = []) throws -> Story {
                let tagList = tags.map { "\"\($0)\"" }.joined(separator: ",")
                return try Story(json: try #require(try JSONValue(parsing: """
                    {"uuid": "\(uuid)", "full_slug": "\(slug)", "first_published_at": "\(date)", "tag_list": [\(tagList)],
                     "content": {"_uid": "r", "component": "\(component)"}}
                    """).objectValue))
            }
            let space = [
                try story("u-home", "home"),
                try post("u-1", "news/one", date: "2024-01-01"), try post("u-2", "news/two", date: "2024-03-01", tags: ["hot"]),
                try post("u-3", "news/three", date: "2024-02-01"), try post("u-4", "news/old/four", date: "2025-01-01", tags: ["hot"]),
                try post("u-5", "guides/five", date: "2020-01-01", component: "guide"),
            ]
            let latest = StorySelection(folder: "news/", order: try StoryOrder(parsing: "first_published_at desc"), limit: 2)
            let hot = StorySelection(folder: "news/", recursive: true, tag: "hot")
            let guides = StorySelection(recursive: true, component: "guide")
            let source = RecordingSource(space)
            let graph = try await Crawler(source: source, collections: [latest, hot, guides]).crawl()
            #expect(graph.stories.map(\.story.uuid) == ["u-home", "u-2", "u-3", "u-4", "u-5"])
            #expect(graph.stories.map(\.depth) == [0, 0, 0, 0, 0])
            #expect(graph.root?.uuid == "u-home")
            #expect(latest.select(from: space).map(\.uuid) == ["u-2", "u-3"])
            #expect(hot.select(from: space).map(\.uuid) == ["u-4", "u-2"])
            #expect(await source.queries == [StoryQuery(folder: "news/"), StoryQuery(folder: "news/", tag: "hot"), StoryQuery(folder: "")])
        }

        private func memorySource(_ stories: [Story]) throws -> LocalFolderSource {
            let folder = try TemporaryFolder()
            for story in stories {
                _ = try folder.write(story.uuid + ".json", JSONValue.object(story.raw).jsonText())
            }
            return try LocalFolderSource(folder: folder.url)
        }
    }
}
