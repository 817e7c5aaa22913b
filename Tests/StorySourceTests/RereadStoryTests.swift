import Foundation
import StoryModel
import Testing
import TestSupport
@testable import StorySource

extension StorySourceTests {
    @Suite("Reading one story file again after a save")
    struct RereadStoryTests {
        /// A folder with `a.json` (bare), `b.json` (a content API response) and `list.json`
        /// (two stories), and the source read from it.
        static func folder() throws -> (TemporaryFolder, LocalFolderSource) {
            let folder = try TemporaryFolder()
            try folder.write("a.json", storyJSON(uuid: "u-a", slug: "a"))
            try folder.write("sub/b.json", #"{"story": "# + storyJSON(uuid: "u-b", slug: "sub/b") + "}")
            try folder.write("list.json", #"{"stories": ["# + storyJSON(uuid: "u-one", slug: "one") + ", " + storyJSON(uuid: "u-two", slug: "two") + "]}")
            return (folder, try LocalFolderSource(folder: folder.url))
        }

        static let edited = #"[{"component": "text", "_uid": "t"}]"#

        @Test("a single-story file that holds the same UUID gives its new version, with its file's digest")
        func sameUUID() throws {
            let (folder, source) = try Self.folder()
            let before = try #require(source.story(for: .uuid("u-a")))
            try folder.write("a.json", storyJSON(uuid: "u-a", slug: "a", body: Self.edited))
            let story = try #require(source.rereadStory(atPath: folder.path("a.json").path))
            #expect(story.uuid == "u-a")
            #expect(story.content["body"]?.arrayValue?.count == 1)
            #expect(story.givenDigest != nil)
            #expect(story.digest != before.digest)
            #expect(source.story(for: .uuid("u-a"))?.content["body"]?.arrayValue?.isEmpty == true, "the folder itself is not changed")
        }

        @Test("a content API response file in a sub-folder is read again too, the path given with dot segments")
        func responseFile() throws {
            let (folder, source) = try Self.folder()
            try folder.write("sub/b.json", #"{"story": "# + storyJSON(uuid: "u-b", slug: "sub/b", body: Self.edited) + "}")
            let story = try #require(source.rereadStory(atPath: folder.url.path + "/sub/../sub/b.json"))
            #expect(story.uuid == "u-b")
            #expect(story.content["body"]?.arrayValue?.count == 1)
        }

        @Test("a list file, a new file, a file now holding another story's UUID, malformed JSON, a file gone, or a path outside the folder gives nil",
              arguments: ["list", "new", "other uuid", "new uuid", "malformed", "gone", "outside", "the folder"])
        func givesNil(case name: String) throws {
            let (folder, source) = try Self.folder()
            let outside = try TemporaryFolder()
            let path: URL
            switch name {
            case "list":
                path = try folder.write("list.json", #"{"stories": ["# + storyJSON(uuid: "u-one", slug: "one", body: Self.edited) + "]}")
            case "new":
                path = try folder.write("c.json", storyJSON(uuid: "u-c", slug: "c"))
            case "other uuid":
                path = try folder.write("a.json", storyJSON(uuid: "u-b", slug: "a"))
            case "new uuid":
                path = try folder.write("a.json", storyJSON(uuid: "u-z", slug: "a"))
            case "malformed":
                path = try folder.write("a.json", #"{"uuid": "u-a", "full_slug": "a", "content": {"#)
            case "gone":
                path = folder.path("a.json")
                try FileManager.default.removeItem(at: path)
            case "outside":
                path = try outside.write("a.json", storyJSON(uuid: "u-a", slug: "a", body: Self.edited))
            default:
                path = folder.url
            }
            #expect(source.rereadStory(atPath: path.path) == nil)
        }

        @Test("a path that leaves the folder through dot segments gives nil")
        func dotSegments() throws {
            let (folder, source) = try Self.folder()
            let name = folder.url.lastPathComponent
            try folder.write("a.json", storyJSON(uuid: "u-a", slug: "a", body: Self.edited))
            #expect(source.rereadStory(atPath: folder.url.path + "/../" + name + "/a.json") != nil, "a path back into it is fine")
            #expect(source.rereadStory(atPath: folder.url.path + "/sub/../../" + name + "-x/a.json") == nil)
        }

        @Test("a folder reads JSON files whatever the case of the extension, and passes over hidden, backup and other files",
              arguments: [
                ("a.json", true), ("A.JSON", true), ("b.Json", true), ("é.jsOn", true), (".a.json", false), (".json", false),
                ("sed123", false), ("a.json~", false), ("a.txt", false), ("ajson", false), ("a-json", false), ("a.jsqn", false),
            ])
        func readsFile(name: String, reads: Bool) {
            #expect(LocalFolderSource.readsFile(named: name) == reads)
        }
    }
}
