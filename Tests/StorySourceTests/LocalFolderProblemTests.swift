import Foundation
import StoryModel
import Testing
import TestSupport
@testable import StorySource

extension StorySourceTests {
    @Suite("Local folder problems")
    struct LocalFolderProblemTests {
        /// The problems loading `folder` reports, one description per line.
        private func problems(_ folder: TemporaryFolder) -> [String] {
            do {
                _ = try LocalFolderSource(folder: folder.url, displayPath: "Content")
                return []
            } catch {
                return error.problems.map(\.description)
            }
        }

        @Test("malformed JSON names the file with line and column")
        func malformedJSON() throws {
            let folder = try TemporaryFolder()
            try folder.write("blog/post.json", "{\n  \"uuid\": \"a\",\n  \"full_slug\": \"b\"\n  \"content\": {}\n}")
            #expect(problems(folder) == ["Content/blog/post.json:4:3: error: expected ',' or '}' after object value"])
        }

        @Test("a duplicate uuid names both files")
        func duplicateUUID() throws {
            let folder = try TemporaryFolder()
            try folder.write("a.json", storyJSON(uuid: "x", slug: "a"))
            try folder.write("b/b.json", storyJSON(uuid: "x", slug: "b"))
            #expect(problems(folder) == ["Content/b/b.json: error: duplicate uuid 'x' (also in Content/a.json)"])
        }

        @Test("a duplicate full_slug names both files, also when one is written as a start page")
        func duplicateSlug() throws {
            let folder = try TemporaryFolder()
            try folder.write("a.json", storyJSON(uuid: "1", slug: "blog/post"))
            try folder.write("b.json", storyJSON(uuid: "2", slug: "/blog/post"))
            try folder.write("c.json", storyJSON(uuid: "3", slug: "docs"))
            try folder.write("d.json", storyJSON(uuid: "4", slug: "docs/"))
            #expect(problems(folder) == [
                "Content/b.json: error: duplicate full_slug 'blog/post' (also in Content/a.json)",
                "Content/d.json: error: duplicate full_slug 'docs/' (also in Content/c.json as 'docs')",
            ])
        }

        @Test("duplicates inside a list file name the entries")
        func duplicateInList() throws {
            let folder = try TemporaryFolder()
            try folder.write("list.json", #"{"stories": [\#(storyJSON(uuid: "1", slug: "a")), \#(storyJSON(uuid: "1", slug: "b"))]}"#)
            #expect(problems(folder) == ["Content/list.json: error: stories[1]: duplicate uuid '1' (also in Content/list.json (stories[0]))"])
        }

        @Test("a story missing required keys names the file and every missing key")
        func missingKeys() throws {
            let folder = try TemporaryFolder()
            try folder.write("bare.json", #"{"uuid": "1", "full_slug": "a"}"#)
            try folder.write("response.json", #"{"story": {"name": "B"}}"#)
            try folder.write("list.json", #"{"stories": [\#(storyJSON(uuid: "3", slug: "c")), {"uuid": "4", "content": {}}, 7]}"#)
            let needs = " (every story has uuid, full_slug and content)"
            #expect(problems(folder) == [
                "Content/bare.json: error: story is missing the required key 'content'" + needs,
                "Content/list.json: error: stories[1]: story is missing the required key 'full_slug'" + needs,
                "Content/list.json: error: stories[2]: a story must be a JSON object, found a number",
                "Content/response.json: error: story is missing the required keys 'uuid', 'full_slug' and 'content'" + needs,
            ])
        }

        @Test("a file that holds no story says which shapes are expected")
        func notAStory() throws {
            let folder = try TemporaryFolder()
            try folder.write("components.json", #"{"components": []}"#)
            try folder.write("list.json", "[1, 2]")
            try folder.write("stories.json", #"{"stories": {"a": 1}}"#)
            let shapes = "expected a story object (with uuid, full_slug and content), a {\"story\": …} response or a {\"stories\": […]} list"
            #expect(problems(folder) == [
                "Content/components.json: error: not a story: \(shapes)",
                "Content/list.json: error: expected a JSON object, found an array; \(shapes)",
                "Content/stories.json: error: 'stories' must be an array of story objects, found an object",
            ])
        }

        @Test("every problem in the folder is reported together, in path order, before failing")
        func allTogether() throws {
            let folder = try TemporaryFolder()
            try folder.write("a.json", storyJSON(uuid: "1", slug: "a"))
            try folder.write("b.json", "{\"uuid\": ")
            try folder.write("c/c.json", storyJSON(uuid: "1", slug: "c"))
            try folder.write("d.json", #"{"uuid": "4", "full_slug": "d", "content": []}"#)
            try folder.write("e.json", storyJSON(uuid: "5", slug: "a"))
            let error = #expect(throws: SourceProblems.self) {
                try LocalFolderSource(folder: folder.url, displayPath: "Content/")
            }
            #expect(error?.description == """
                Content/b.json:1:10: error: unexpected end of file, expected a value
                Content/c/c.json: error: duplicate uuid '1' (also in Content/a.json)
                Content/d.json: error: story key 'content' must be an object (the root block)
                Content/e.json: error: duplicate full_slug 'a' (also in Content/a.json)
                """)
        }

        @Test("a missing folder is an error naming it")
        func missingFolder() throws {
            let folder = try TemporaryFolder()
            #expect(throws: SourceProblems([SourceProblem(file: "Content", message: "no such folder; give the folder that holds the story JSON files")])) {
                try LocalFolderSource(folder: folder.path("nothing"), displayPath: "Content")
            }
            try folder.write("file.json", "{}")
            #expect(throws: SourceProblems.self) { try LocalFolderSource(folder: folder.path("file.json")) }
        }

        @Test("problems are shown relative to the folder as the user gave it")
        func relativeDisplay() throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/bad.json", "nope")
            let relative = URL(fileURLWithPath: "Content", relativeTo: folder.url)
            let error = #expect(throws: SourceProblems.self) { try LocalFolderSource(folder: relative) }
            #expect(error?.description == "Content/bad.json:1:1: error: unexpected character 'n', expected a value")
        }
    }
}
