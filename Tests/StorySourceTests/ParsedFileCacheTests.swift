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

        @Test("a file is taken from the cache only while its size, times and inode are those it was read with")
        func stampDecides() async throws {
            let folder = try TemporaryFolder()
            try folder.write("a.json", Self.story("a", name: "Alpha"))
            let cache = ParsedFileCache()
            _ = try LocalFolderSource(folder: folder.url, cache: cache)
            let stamp = try #require(ParsedFileCache.Stamp(path: folder.path("a.json").path))
            #expect(cache.file(at: folder.path("a.json").path, stamp: stamp) != nil)

            // The same size, and the old modification time put back: the change time still differs.
            let modified = try #require(try FileManager.default.attributesOfItem(atPath: folder.path("a.json").path)[.modificationDate] as? Date)
            try folder.write("a.json", Self.story("a", name: "Bravo"))
            try Self.setModified(folder.path("a.json"), to: modified)
            let restamped = try #require(ParsedFileCache.Stamp(path: folder.path("a.json").path))
            #expect(restamped != stamp)
            #expect(cache.file(at: folder.path("a.json").path, stamp: restamped) == nil)
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
    }
}
