import Foundation
import StoryModel
import Testing
import TestSupport
@testable import StorySource

extension StorySourceTests {
    @Suite("Parsed files kept between loads")
    struct ParsedFileCacheTests {
        private static func names(_ source: LocalFolderSource) async throws -> [String] {
            try #require(try await source.allStories()).map(\.name).sorted()
        }

        private static func story(_ uuid: String, name: String) -> String {
            #"{"uuid": "\#(uuid)", "name": "\#(name)", "full_slug": "\#(uuid)", "content": {"component": "page", "_uid": "r"}}"#
        }

        /// Sets the file's modification time back to `date`, as an editor never would: only a
        /// file whose stat is unchanged may come from the cache.
        private static func setModified(_ path: URL, to date: Date) throws {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path.path)
        }

        @Test("an edited, added or deleted file shows its change on the next load through the cache")
        func reloads() async throws {
            let folder = try TemporaryFolder()
            try folder.write("a.json", Self.story("a", name: "Alpha"))
            try folder.write("b.json", Self.story("b", name: "Bravo"))
            try folder.write("c.json", Self.story("c", name: "Charlie"))
            let cache = ParsedFileCache()
            #expect(try await Self.names(LocalFolderSource(folder: folder.url, cache: cache)) == ["Alpha", "Bravo", "Charlie"])

            try folder.write("a.json", Self.story("a", name: "Alpha 2"))
            try folder.write("d.json", Self.story("d", name: "Delta"))
            try FileManager.default.removeItem(at: folder.path("c.json"))
            #expect(try await Self.names(LocalFolderSource(folder: folder.url, cache: cache)) == ["Alpha 2", "Bravo", "Delta"])
        }

        @Test("after a load, the cache gives the versions the files it read again held before, and none of files it kept or had not seen")
        func earlierVersions() async throws {
            let folder = try TemporaryFolder()
            try folder.write("a.json", Self.story("a", name: "Alpha"))
            try folder.write("b.json", Self.story("b", name: "Bravo"))
            let cache = ParsedFileCache()
            _ = try LocalFolderSource(folder: folder.url, cache: cache)
            #expect(cache.earlierVersions.isEmpty, "a first load read every file, none of them held before")

            try folder.write("a.json", Self.story("a", name: "Alpha 2"))
            try folder.write("c.json", Self.story("c", name: "Charlie"))
            _ = try LocalFolderSource(folder: folder.url, cache: cache)
            #expect(cache.earlierVersions.mapValues(\.name) == ["a": "Alpha"], "b was kept, c is new")

            // Kept on disk and read back, the cache gives the earlier versions by their heads.
            let file = folder.path("cache")
            try #require(cache.encoded()).write(to: file)
            let read = ParsedFileCache.reading(file)
            try folder.write("b.json", Self.story("b", name: "Bravo 2"))
            _ = try LocalFolderSource(folder: folder.url, cache: read)
            let earlier = try #require(read.earlierVersions["b"])
            #expect(earlier.name == "Bravo" && read.earlierVersions.count == 1)
            _ = try LocalFolderSource(folder: folder.url, cache: read)
            #expect(read.earlierVersions.isEmpty, "a load that read nothing again")
        }

        @Test("a file is taken from the cache only while its size, times and inode are those it was read with")
        func stampDecides() async throws {
            let folder = try TemporaryFolder()
            try folder.write("a.json", Self.story("a", name: "Alpha"))
            let cache = ParsedFileCache()
            _ = try LocalFolderSource(folder: folder.url, cache: cache)
            let stamp = try #require(ParsedFileCache.Stamp(path: folder.path("a.json").path))
            #expect(cache.lookup().file(at: folder.path("a.json").path, stamp: stamp) != nil)

            // The same size, and the old modification time put back: the change time still differs.
            let modified = try #require(try FileManager.default.attributesOfItem(atPath: folder.path("a.json").path)[.modificationDate] as? Date)
            try folder.write("a.json", Self.story("a", name: "Bravo"))
            try Self.setModified(folder.path("a.json"), to: modified)
            let restamped = try #require(ParsedFileCache.Stamp(path: folder.path("a.json").path))
            #expect(restamped != stamp)
            #expect(cache.lookup().file(at: folder.path("a.json").path, stamp: restamped) == nil)
            #expect(try await Self.names(LocalFolderSource(folder: folder.url, cache: cache)) == ["Bravo"])
        }

        @Test("files with problems are reported again on every load, from the cache too")
        func problemsStay() throws {
            let folder = try TemporaryFolder()
            try folder.write("bad.json", "{\"uuid\": ")
            let cache = ParsedFileCache()
            for _ in 1...2 {
                #expect(throws: SourceProblems.self) { try LocalFolderSource(folder: folder.url, displayPath: "Content", cache: cache) }
            }
        }

        /// Writes the cache's file as a build does.
        private static func save(_ cache: ParsedFileCache, to file: URL) throws {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(try #require(cache.encoded()).bytes).write(to: file)
        }

        @Test("a cache kept on disk gives the same stories, reading a story's content only when it is asked for")
        func onDisk() async throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/a.json", #"{"story": "# + Self.story("a", name: "Alpha") + #", "rels": []}"#)
            try folder.write("Content/b.json", Self.story("b", name: "Bravo"))
            let cacheFile = folder.path("cache/files")
            let first = ParsedFileCache()
            let fresh = try LocalFolderSource(folder: folder.path("Content"), displayPath: "Content", cache: first)
            try Self.save(first, to: cacheFile)

            let kept = ParsedFileCache.reading(cacheFile)
            let source = try LocalFolderSource(folder: folder.path("Content"), displayPath: "Content", cache: kept)
            for uuid in ["a", "b"] {
                let expected = try #require(fresh.story(for: .uuid(uuid)))
                let story = try #require(source.story(for: .uuid(uuid)))
                #expect(story.name == expected.name && story.fullSlug == expected.fullSlug && story.digest == expected.digest)
                #expect(story.head == expected.head)
            }
            // A story's content is read from its file's tape, as the file's own story reads it.
            let fromCache = try #require(source.story(for: .uuid("a")))
            #expect(fromCache.withContent { _, reader, root in reader.value(at: root) } == fresh.story(for: .uuid("a"))?.content)
            // Changed after the load, before its content is read: it reads as nothing, and is reported.
            try folder.write("Content/b.json", Self.story("b", name: "Bravo 2"))
            #expect(try #require(source.story(for: .uuid("a"))).raw == fresh.story(for: .uuid("a"))?.raw)
            #expect(try #require(source.story(for: .uuid("b"))).content == .object(JSONObject()))
            #expect(kept.filesChangedSinceLoad == ["Content/b.json"])

            // The next load (serve's next rebuild) reads the file again and has nothing to report.
            let reloaded = try LocalFolderSource(folder: folder.path("Content"), displayPath: "Content", cache: kept)
            #expect(reloaded.story(for: .uuid("b"))?.name == "Bravo 2")
            #expect(kept.filesChangedSinceLoad.isEmpty)
        }

        @Test("a cache file written again after an edit keeps every file, the unchanged ones copied, and reads back as the folder is")
        func rewrittenAfterEdit() async throws {
            let folder = try TemporaryFolder()
            for (uuid, name) in [("a", "Alpha"), ("b", "Bravo"), ("c", "Charlie")] { try folder.write("Content/\(uuid).json", Self.story(uuid, name: name)) }
            let cacheFile = folder.path("cache/files")
            let first = ParsedFileCache()
            _ = try LocalFolderSource(folder: folder.path("Content"), cache: first)
            try Self.save(first, to: cacheFile)
            for round in 1...3 {
                try folder.write("Content/b.json", Self.story("b", name: "Bravo \(round)"))
                let kept = ParsedFileCache.reading(cacheFile)
                _ = try LocalFolderSource(folder: folder.path("Content"), cache: kept)
                try Self.save(kept, to: cacheFile)

                let reread = ParsedFileCache.reading(cacheFile)
                for uuid in ["a", "b", "c"] {
                    let path = folder.path("Content/\(uuid).json").path
                    #expect(reread.lookup().file(at: path, stamp: try #require(ParsedFileCache.Stamp(path: path))) != nil, "round \(round): \(uuid)")
                }
                let source = try LocalFolderSource(folder: folder.path("Content"), cache: reread)
                #expect(try await Self.names(source) == ["Alpha", "Bravo \(round)", "Charlie"])
            }
        }

        @Test("a cache file of many files, written again over itself after edits at both ends and in the middle, copies the runs between them and reads back as the folder is")
        func runsCopiedAfterEdits() async throws {
            let folder = try TemporaryFolder()
            let uuids = (0..<600).map { String(format: "story-%03d", $0) }
            func write(_ uuid: String, round: Int) throws {
                try folder.write("Content/\(uuid).json", Self.story(uuid, name: "\(uuid) round \(round) " + String(repeating: "long name ", count: 20)))
            }
            for uuid in uuids { try write(uuid, round: 0) }
            let cacheFile = folder.path("cache/files")
            let first = ParsedFileCache()
            _ = try LocalFolderSource(folder: folder.path("Content"), cache: first)
            try Self.save(first, to: cacheFile)
            for (round, edited) in [[0, 300, 599], [1, 2], [598], [250, 251, 252, 400]].enumerated() {
                for index in edited { try write(uuids[index], round: round + 1) }
                let kept = ParsedFileCache.reading(cacheFile)
                _ = try LocalFolderSource(folder: folder.path("Content"), cache: kept)
                let encoded = try #require(kept.encoded())
                #expect(encoded.chunks.contains { if case .mapped = $0 { true } else { false } }, "round \(round): runs copied from the file read")
                try encoded.write(to: cacheFile)

                let reread = ParsedFileCache.reading(cacheFile)
                for uuid in uuids {
                    let path = folder.path("Content/\(uuid).json").path
                    #expect(reread.lookup().file(at: path, stamp: try #require(ParsedFileCache.Stamp(path: path))) != nil, "round \(round): \(uuid)")
                }
                let source = try LocalFolderSource(folder: folder.path("Content"), cache: reread)
                let fresh = try LocalFolderSource(folder: folder.path("Content"))
                #expect(try await Self.names(source) == (try await Self.names(fresh)), "round \(round)")
                #expect(reread.encoded() == nil, "round \(round): nothing new to keep")
            }
        }

        @Test("records are written in the order of their places in the file read, a removed file's place passed over")
        func recordsInReadOrder() {
            #expect(ParsedFileCache.indicesInOrder(of: [3, 0, 5, 1]) == [1, 3, 0, 2])
            #expect(ParsedFileCache.indicesInOrder(of: []) == [])
        }

        @Test("a cache kept on disk keeps the digests of each story's translations, found since too, so the next build translates it without reading its file")
        func translationDigests() async throws {
            let folder = try TemporaryFolder()
            let text = #"{"uuid": "a", "name": "Alpha", "full_slug": "a", "content": {"component": "page", "title": "Hi", "title__i18n__de": "Hallo"}}"#
            try folder.write("Content/a.json", text)
            let cacheFile = folder.path("cache/files")
            let first = ParsedFileCache()
            _ = try LocalFolderSource(folder: folder.path("Content"), displayPath: "Content", cache: first)
            try Self.save(first, to: cacheFile)

            // The record was written before any translation: a load that translates writes it again.
            let translating = ParsedFileCache.reading(cacheFile)
            let eager = try #require(try LocalFolderSource(folder: folder.path("Content"), displayPath: "Content", cache: translating)
                .translated(to: "de", isDefault: false).story(for: .uuid("a")))
            #expect(eager.content["title"]?.stringValue == "Hallo")
            try Self.save(translating, to: cacheFile)

            let kept = ParsedFileCache.reading(cacheFile)
            let source = try LocalFolderSource(folder: folder.path("Content"), displayPath: "Content", cache: kept)
            let german = try #require(source.translated(to: "de", isDefault: false).story(for: .uuid("a")))
            #expect(german.digest == eager.digest && german.head == eager.head)
            #expect(kept.encoded() == nil, "nothing new to keep")
            // Translated without reading the file: changed now, it reads as nothing, and is reported.
            try folder.write("Content/a.json", text.replacingOccurrences(of: "Hallo", with: "Servus"))
            #expect(german.content == .object(JSONObject()))
            #expect(kept.filesChangedSinceLoad == ["Content/a.json"])
        }

        @Test("a cache file that is corrupt, truncated or of another version is ignored")
        func corruptOnDisk() throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/a.json", Self.story("a", name: "Alpha"))
            let cacheFile = folder.path("cache/files")
            let cache = ParsedFileCache()
            _ = try LocalFolderSource(folder: folder.path("Content"), cache: cache)
            try Self.save(cache, to: cacheFile)
            let bytes = try Data(contentsOf: cacheFile)
            for broken in [bytes.dropLast(3), Data("storysite parsed files 0\n".utf8) + bytes.dropFirst(25), Data("{}".utf8)] {
                try Data(broken).write(to: cacheFile)
                let read = ParsedFileCache.reading(cacheFile)
                let stamp = try #require(ParsedFileCache.Stamp(path: folder.path("Content/a.json").path))
                #expect(read.lookup().file(at: folder.path("Content/a.json").path, stamp: stamp) == nil)
                #expect(try LocalFolderSource(folder: folder.path("Content"), cache: read).story(for: .uuid("a"))?.name == "Alpha")
            }
        }
    }
}
