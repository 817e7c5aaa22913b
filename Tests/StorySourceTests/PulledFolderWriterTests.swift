import Foundation
import StoryModel
import Testing
import TestSupport
@testable import StorySource

extension StorySourceTests {
    @Suite("Pulled folders")
    struct PulledFolderWriterTests {
        private func story(_ json: String) throws -> Story {
            guard case .object(let object) = try JSONValue(parsing: json) else { throw PulledFolderWriter.Failure("not an object") }
            return try Story(json: object)
        }

        @Test("a pulled folder reads back as the same stories, start pages included")
        func roundTrip() async throws {
            let stories = [
                try story(#"{"id": 1, "uuid": "u-home", "full_slug": "home", "name": "Home \"quoted\"\n", "content": {"component": "page", "_uid": "1", "n": 2.5, "big": 12345678901, "none": null, "list": [], "map": {}, "text": "tab\tand é ✓"}}"#),
                try story(#"{"uuid": "u-blog", "full_slug": "blog/", "content": {"component": "folder", "_uid": "2"}}"#),
                try story(#"{"uuid": "u-post", "full_slug": "blog/post", "content": {"component": "page", "_uid": "3", "flag": true}}"#),
            ]
            let folder = try TemporaryFolder()
            let written = try PulledFolderWriter.write(stories: stories, to: folder.url)
            #expect(written == ["home.json", "blog.json", "blog/post.json"])
            #expect(try folder.read("blog.json").hasPrefix("{\n  \"story\": {\n"))
            let source = try LocalFolderSource(folder: folder.url)
            let read = try #require(try await source.allStories())
            #expect(Set(read) == Set(stories))
            #expect(try await source.stories(for: [.slug("blog")])[.slug("blog")]?.uuid == "u-blog")
        }

        @Test("a number too large for a double is pulled as valid JSON, and the folder builds like the API")
        func hugeNumberRoundTrip() async throws {
            let stories = [try story(#"{"uuid": "u-home", "full_slug": "home", "content": {"component": "page", "_uid": "1", "huge": 1e400, "tiny": -1e400}}"#)]
            let folder = try TemporaryFolder()
            try PulledFolderWriter.write(stories: stories, to: folder.url)
            #expect(!(try folder.read("home.json")).contains("inf"))
            let read = try await LocalFolderSource(folder: folder.url).allStories()
            #expect(read == stories)
        }

        @Test("a non-empty folder that pull did not make is refused unless forced")
        func refusesForeignFolder() throws {
            let folder = try TemporaryFolder()
            try folder.write("notes.txt", "mine")
            let stories = [apiStory("u-home", "home")]
            #expect {
                try PulledFolderWriter.write(stories: stories, to: folder.url)
            } throws: { error in
                (error as? PulledFolderWriter.Failure)?.description == "\(folder.url.path) is not empty and was not made by pull; give a new or empty folder, or --force to write into it"
            }
            try PulledFolderWriter.write(stories: stories, to: folder.url, force: true)
            #expect(folder.exists("home.json") && folder.exists("notes.txt"))
        }

        @Test("pulling again into its own folder replaces its files and removes those no longer pulled")
        func repull() throws {
            let folder = try TemporaryFolder()
            try PulledFolderWriter.write(stories: [apiStory("u-home", "home"), apiStory("u-old", "old/gone")], to: folder.url)
            try folder.write("notes.txt", "kept")
            try PulledFolderWriter.write(stories: [apiStory("u-home", "home"), apiStory("u-new", "new")], to: folder.url)
            #expect(folder.exists("home.json") && folder.exists("new.json") && folder.exists("notes.txt"))
            #expect(!folder.exists("old/gone.json") && !folder.exists("old"))
            #expect(try folder.read(PulledFolderWriter.markerName) == "home.json\nnew.json\n")
        }

        @Test("slugs that could escape the folder or not be read back are refused", arguments: [
            "../etc/passwd", "a/../../b", "a//b", ".hidden", "a/.git/x", "back\\slash", "tab\there", "/",
        ])
        func unsafeSlugs(slug: String) throws {
            let folder = try TemporaryFolder()
            #expect(throws: PulledFolderWriter.Failure.self) {
                try PulledFolderWriter.write(stories: [apiStory("u-bad", slug)], to: folder.url)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        }

        @Test("two stories that would share a file are refused, naming both")
        func collisions() throws {
            let folder = try TemporaryFolder()
            #expect {
                try PulledFolderWriter.write(stories: [apiStory("u-1", "blog"), apiStory("u-2", "blog/")], to: folder.url)
            } throws: { error in
                (error as? PulledFolderWriter.Failure)?.description == "stories u-1 ('blog') and u-2 ('blog/') would both be written to blog.json"
            }
        }
    }
}
