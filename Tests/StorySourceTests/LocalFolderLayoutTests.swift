import Foundation
import StoryModel
import Testing
import TestSupport
@testable import StorySource

/// A story object as JSON text, for fixture files.
func storyJSON(uuid: String, slug: String, id: Int? = nil, body: String = "[]") -> String {
    let idField = id.map { "\"id\": \($0), " } ?? ""
    return #"{\#(idField)"uuid": "\#(uuid)", "full_slug": "\#(slug)", "content": {"component": "page", "_uid": "r-\#(uuid)", "body": \#(body)}}"#
}

extension StorySourceTests {
    @Suite("Local folder layouts and lookups")
    struct LocalFolderLayoutTests {
        @Test("answers a folder query with the stories below it in full_slug order, and a tag query with the tagged ones")
        func queries() async throws {
            let folder = try TemporaryFolder()
            for slug in ["blog/b", "blog/", "blog/a", "blogroll", "blog/deep/c", "about", "blog-x/d"] {
                try folder.write(slug.replacingOccurrences(of: "/", with: "_") + ".json", storyJSON(uuid: "u-" + slug, slug: slug))
            }
            try folder.write("tagged.json", #"{"uuid": "u-t", "full_slug": "blog/t", "tag_list": ["hot"], "content": {"component": "page"}}"#)
            let source = try LocalFolderSource(folder: folder.url)
            #expect(try await source.stories(matching: StoryQuery(folder: "blog/")).map(\.fullSlug) == [
                "blog/", "blog/a", "blog/b", "blog/deep/c", "blog/t",
            ])
            #expect(source.stories(answering: StoryQuery(folder: "blog/", tag: "hot")).map(\.uuid) == ["u-t"])
            #expect(source.stories(answering: StoryQuery(folder: "")).count == 8)
            #expect(source.stories(answering: StoryQuery(folder: "zzz/")).isEmpty)
        }

        @Test("tells the file and line of a story's field in every layout, or of the story itself, translated or not")
        func fieldPositions() throws {
            let folder = try TemporaryFolder()
            let body = "[\n  {\"component\": \"teaser\",\n   \"link\": {\"id\": \"x\"}}]"
            try folder.write("bare.json", storyJSON(uuid: "u-bare", slug: "bare", body: body))
            try folder.write("response.json", "{\"cv\": 1,\n \"story\": " + storyJSON(uuid: "u-response", slug: "response", body: body) + "}")
            try folder.write("list.json", "{\"stories\": [\n" + storyJSON(uuid: "u-one", slug: "one") + ",\n"
                + storyJSON(uuid: "u-two", slug: "two", body: body) + "]}")
            let source = try LocalFolderSource(folder: folder.url, displayPath: "Content")
            #expect(source.position(ofField: "body[0].link", inStory: "u-bare").map { "\($0.file):\($0.line)" } == "Content/bare.json:3")
            #expect(source.position(ofField: "body[0]", inStory: "u-bare").map { "\($0.file):\($0.line)" } == "Content/bare.json:2")
            #expect(source.position(ofField: "", inStory: "u-bare").map { "\($0.file):\($0.line)" } == "Content/bare.json:1")
            #expect(source.position(ofField: "body[0].link", inStory: "u-response").map { "\($0.file):\($0.line)" } == "Content/response.json:4")
            #expect(source.position(ofField: "", inStory: "u-response").map { "\($0.file):\($0.line)" } == "Content/response.json:2")
            #expect(source.position(ofField: "body[0].link", inStory: "u-two").map { "\($0.file):\($0.line)" } == "Content/list.json:5")
            #expect(source.position(ofField: "", inStory: "u-two").map { "\($0.file):\($0.line)" } == "Content/list.json:3")
            let german = source.translated(to: "de", isDefault: false)
            #expect(german.position(ofField: "body[0].link", inStory: "u-two").map { "\($0.file):\($0.line)" } == "Content/list.json:5")
            #expect(source.position(ofField: "body", inStory: "u-nobody") == nil)
        }

        /// `paths` of `folder` with what `lstat` says of each, as a listing gives them.
        private static func stamped(_ paths: [String], in folder: TemporaryFolder) -> [(path: String, stamp: FileStamp)] {
            paths.map { path in
                var info = stat()
                lstat(folder.path(path).path, &info)
                return (path, FileStamp(info))
            }
        }

        @Test("a listing given with the folder finds the files a scan finds, and their bytes; with a symbolic link in it, the folder is scanned")
        func givenListing() async throws {
            let folder = try TemporaryFolder()
            try folder.write("home.json", storyJSON(uuid: "u-home", slug: "home"))
            try folder.write("blog/post.json", storyJSON(uuid: "u-post", slug: "blog/post"))
            try folder.write("blog/notes.txt", "not content")
            try folder.write(".git/config.json", "{broken")
            try folder.write("blog/.drafts/draft.json", "{broken")
            // A link inside a hidden folder is never followed, so it does not matter.
            try FileManager.default.createSymbolicLink(atPath: folder.path("blog/.drafts/link").path, withDestinationPath: "/")
            func listing() -> [(path: String, stamp: FileStamp)] {
                Self.stamped(FileManager.default.subpaths(atPath: folder.url.path) ?? [], in: folder)
            }
            func uuids(_ listed: [(path: String, stamp: FileStamp)]?, cache: ParsedFileCache? = nil) async throws -> [String]? {
                try await LocalFolderSource(folder: folder.url, cache: cache, listed: listed).allStories()?.map(\.uuid)
            }
            #expect(try await uuids(listing()) == ["u-post", "u-home"])
            // The bytes of the files it reads, not of the text file or the hidden ones.
            let storyBytes = try ["home.json", "blog/post.json"].reduce(0) { $0 + (try folder.read($1).utf8.count) }
            #expect(LocalFolderSource.storyFileBytes(listed: listing()) == storyBytes)

            // The stamps a listing gives tell a cache which files changed.
            let cache = ParsedFileCache()
            #expect(try await uuids(listing(), cache: cache) == ["u-post", "u-home"])
            try folder.write("blog/post.json", storyJSON(uuid: "u-post", slug: "blog/moved"))
            let source = try LocalFolderSource(folder: folder.url, cache: cache, listed: listing())
            #expect(source.story(for: .uuid("u-post"))?.fullSlug == "blog/moved")

            // A linked folder appears in a listing as a link alone: only a scan reads what it holds.
            let elsewhere = try TemporaryFolder()
            try elsewhere.write("linked.json", storyJSON(uuid: "u-linked", slug: "linked"))
            try FileManager.default.createSymbolicLink(atPath: folder.path("shared").path, withDestinationPath: elsewhere.url.path)
            #expect(try await uuids(listing()) == ["u-post", "u-home", "u-linked"])
            #expect(LocalFolderSource.storyFileBytes(listed: listing()) == nil)
        }

        @Test("a listing in a folder walk's name order, where a folder's name begins another's, gives the files in a scan's byte order")
        func listingOrder() throws {
            let folder = try TemporaryFolder()
            for path in ["blog.json", "blog/post.json", "blog-2024/a.json", "blog-2024/b.json", "z.json"] {
                try folder.write(path, storyJSON(uuid: "u-\(path)", slug: path))
            }
            let scanned = try FolderScan.jsonFiles(in: folder.url.path)
            #expect(scanned == ["blog-2024/a.json", "blog-2024/b.json", "blog.json", "blog/post.json", "z.json"])
            // Depth-first by name, as a listing walks: `blog` before `blog-2024`, though `-` comes before `/`.
            let walked = Self.stamped(["blog", "blog/post.json", "blog-2024", "blog-2024/a.json", "blog-2024/b.json", "blog.json", "z.json"], in: folder)
            #expect(FolderScan.jsonFiles(listed: walked)?.map(\.path) == scanned)
            let inOrder = Self.stamped(["blog-2024", "blog-2024/a.json", "blog-2024/b.json", "blog.json", "blog", "blog/post.json", "z.json"], in: folder)
            #expect(FolderScan.jsonFiles(listed: inOrder)?.map(\.path) == scanned)
        }

        @Test("a file is read whole: empty, of every size around a read's room, one longer than its size says, and one of another size than listed")
        func fileContents() throws {
            let folder = try TemporaryFolder()
            for count in [0, 1, 4095, 4096, 4097, 100_000] {
                let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
                try Data(bytes).write(to: folder.url.appendingPathComponent("f\(count)"))
                #expect(try FolderScan.contents(of: folder.url.appendingPathComponent("f\(count)").path) == bytes)
            }
            // A file of the proc file system says it is empty and holds more: read on to the end.
            let proc = "/proc/self/cmdline"
            if FileManager.default.fileExists(atPath: proc) {
                #expect(try FolderScan.contents(of: proc) == [UInt8](try Data(contentsOf: URL(fileURLWithPath: proc))))
            }
            #expect(throws: FolderScan.Failure.self) { try FolderScan.contents(of: folder.url.appendingPathComponent("missing").path) }
            // The size a listing found, out of date: a file that grew or shrank since is read whole.
            for listed in [0, 1, 4096, 99_999, 100_001, 250_000] as [Int64] {
                let path = folder.url.appendingPathComponent("f100000").path
                #expect(try FolderScan.contents(of: path, size: listed).count == 100_000, "listed at \(listed) bytes")
            }
        }

        @Test("accepts API responses, bare stories, CLI exports and list files in nested folders")
        func layouts() async throws {
            let folder = try TemporaryFolder()
            try folder.write("home.json", #"{"story": \#(storyJSON(uuid: "u-home", slug: "home")), "cv": 1, "rels": [], "links": []}"#)
            try folder.write("blog/first/post.json", storyJSON(uuid: "u-post", slug: "blog/post"))
            try folder.write("export/about_42.json", storyJSON(uuid: "u-about", slug: "about", id: 42))
            try folder.write("deep/a/b/c/list.json", #"{"stories": [\#(storyJSON(uuid: "u-l1", slug: "l/one")), \#(storyJSON(uuid: "u-l2", slug: "l/two"))]}"#)
            try folder.write("README.md", "not content")
            try folder.write(".git/config.json", "{broken")
            try folder.write(".hidden.json", "{broken")

            let source = try LocalFolderSource(folder: folder.url, displayPath: "Content")
            let all = try #require(try await source.allStories())
            #expect(all.map(\.uuid) == ["u-post", "u-l1", "u-l2", "u-about", "u-home"])
            #expect(source.file(ofStory: "u-l2") == "Content/deep/a/b/c/list.json")
            #expect(source.file(ofStory: "u-home") == "Content/home.json")
            #expect(source.description == "Content/")
        }

        @Test("a story's digest changes with any byte of a file that holds it alone, and with its own part of a list")
        func digests() async throws {
            let folder = try TemporaryFolder()
            try folder.write("home.json", storyJSON(uuid: "u-home", slug: "home"))
            try folder.write("list.json", #"{"stories": [\#(storyJSON(uuid: "u-a", slug: "a")), \#(storyJSON(uuid: "u-b", slug: "b"))]}"#)
            func digests() async throws -> [String: String] {
                let stories = try #require(try await LocalFolderSource(folder: folder.url).allStories())
                return Dictionary(uniqueKeysWithValues: stories.map { ($0.uuid, $0.digest) })
            }
            let before = try await digests()
            #expect(try await digests() == before)
            #expect(Set(before.values).count == 3)

            // Only whitespace changes in the file of one story: its digest changes, as a precaution.
            try folder.write("home.json", storyJSON(uuid: "u-home", slug: "home") + "\n")
            try folder.write("list.json", #"{"stories": [\#(storyJSON(uuid: "u-a", slug: "a")), \#(storyJSON(uuid: "u-b", slug: "b", body: #"[{"component": "x", "_uid": "1"}]"#))]}"#)
            let after = try await digests()
            #expect(after["u-home"] != before["u-home"])
            #expect(after["u-a"] == before["u-a"])
            #expect(after["u-b"] != before["u-b"])
        }

        @Test("finds stories by uuid, by full_slug with or without slashes, and by numeric id")
        func lookups() async throws {
            let folder = try TemporaryFolder()
            try folder.write("blog.json", storyJSON(uuid: "u-blog", slug: "blog/", id: 7))
            try folder.write("post.json", storyJSON(uuid: "u-post", slug: "/blog/post", id: 8))
            let source = try LocalFolderSource(folder: folder.url)
            let references: [StoryReference] = [
                .uuid("u-blog"), .slug("blog"), .slug("blog/"), .slug("/blog/"), .id(7),
                .slug("blog/post"), .slug("/blog/post/"), .id(8), .uuid("missing"), .slug("nowhere"), .id(9),
            ]
            let found = try await source.stories(for: references)
            #expect(found.count == 8)
            for reference in references.prefix(5) { #expect(found[reference]?.uuid == "u-blog", "\(reference)") }
            for reference in references[5..<8] { #expect(found[reference]?.uuid == "u-post", "\(reference)") }
            #expect(found[.uuid("missing")] == nil)
            #expect(found[.slug("blog/post")]?.fullSlug == "blog/post")
        }

        @Test("uses a response's related stories only where no file has them")
        func relatedStories() async throws {
            let folder = try TemporaryFolder()
            try folder.write("home.json", #"""
                {"story": \#(storyJSON(uuid: "u-home", slug: "home")),
                 "rels": [\#(storyJSON(uuid: "u-a", slug: "articles/a")), {"uuid": "u-b", "full_slug": "articles/b", "content": {"title": "stale copy"}}]}
                """#)
            try folder.write("articles/b.json", storyJSON(uuid: "u-b", slug: "articles/b"))
            let source = try LocalFolderSource(folder: folder.url)
            let found = try await source.stories(for: [.uuid("u-a"), .uuid("u-b")])
            #expect(found[.uuid("u-a")]?.fullSlug == "articles/a")
            #expect(found[.uuid("u-b")]?.content["title"] == nil)
            #expect(try await source.allStories()?.map(\.uuid) == ["u-b", "u-home", "u-a"])
            #expect(source.file(ofStory: "u-a") == "\(folder.url.relativePath)/home.json")
        }

        @Test("an empty folder is a source with no stories")
        func emptyFolder() async throws {
            let folder = try TemporaryFolder()
            let source = try LocalFolderSource(folder: folder.url)
            #expect(try await source.allStories()?.isEmpty == true)
            #expect(try await source.stories(for: [.slug("home")]).isEmpty)
        }

        @Test("reads the monoblok one-story-per-file export",
              .enabled(if: SharedFixtures.available("storyblok-fixtures/monoblok/has-stories"),
                       "../shared/storyblok-fixtures/monoblok/has-stories is absent: the real export layout is not checked"))
        func monoblokExport() async throws {
            let folder = try #require(SharedFixtures.url("storyblok-fixtures/monoblok/has-stories"))
            let source = try LocalFolderSource(folder: folder)
            #expect(try await source.allStories()?.count == 10)
            let found = try await source.stories(for: [.uuid("2"), .id(3), .slug("blog-index/blog-tech-intro")])
            #expect(found[.uuid("2")]?.fullSlug == "about")
            #expect(found[.id(3)]?.fullSlug == "blog-index")
            #expect(found[.slug("blog-index/blog-tech-intro")]?.uuid == "4")
        }

        @Test("reads the real content API list response, start page included",
              .enabled(if: SharedFixtures.available("storyblok-fixtures/php-client/stories.json"),
                       "../shared/storyblok-fixtures/php-client/stories.json is absent: a real API list response is not checked"))
        func apiListResponse() async throws {
            let list = try #require(SharedFixtures.url("storyblok-fixtures/php-client/stories.json"))
            let folder = try TemporaryFolder()
            try FileManager.default.copyItem(at: list, to: folder.path("stories.json"))
            let source = try LocalFolderSource(folder: folder.url)
            #expect(try await source.allStories()?.count == 13)
            let found = try await source.stories(for: [.slug("article"), .slug("global"), .id(123616130)])
            #expect(found[.slug("article")]?.fullSlug == "article/")
            #expect(found[.slug("global")]?.rootComponent == "global")
            #expect(found[.id(123616130)]?.fullSlug == "home")
        }

        @Test("reports the real overlaps between responses of different spaces in one folder",
              .enabled(if: SharedFixtures.available("storyblok-fixtures/php-client"),
                       "../shared/storyblok-fixtures/php-client is absent: real API responses are not checked"))
        func apiResponsesOverlap() throws {
            let folder = try #require(SharedFixtures.url("storyblok-fixtures/php-client"))
            let error = #expect(throws: SourceProblems.self) { try LocalFolderSource(folder: folder, displayPath: "php-client") }
            #expect(error?.description == """
                php-client/stories.json: error: stories[9]: duplicate full_slug 'home' (also in php-client/stories-relations.json)
                php-client/storyByUuid.json: error: duplicate uuid 'd637be7f-8187-4e8b-9434-93390541f42b' (also in php-client/stories.json (stories[0]))
                """)
        }
    }
}
