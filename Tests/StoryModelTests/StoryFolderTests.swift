import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Story folders")
    struct StoryFolderTests {
        private func story(_ slug: String, _ extra: String = "") throws -> Story {
            let text = #"{"uuid": "u", "full_slug": "\#(slug)", "content": {"component": "page"}\#(extra)}"#
            return try Story(json: try #require(try JSONValue(parsing: text).objectValue))
        }

        @Test("a start page is a slug ending in a slash, an is_startpage story, or an is_folder story")
        func startPages() throws {
            #expect(try story("blog/").startPageFolder == "blog/")
            #expect(try story("blog/index", #", "is_startpage": true"#).startPageFolder == "blog/")
            #expect(try story("blog-index", #", "is_folder": true"#).startPageFolder == "blog-index/")
            #expect(try story("docs/guides/").startPageFolder == "docs/guides/")
            #expect(try story("blog/post").startPageFolder == nil)
            #expect(try story("blog/post", #", "is_startpage": false"#).startPageFolder == nil)
        }

        @Test("a story is listed by the folder it is in; a start page by the folder above its own")
        func listingFolders() throws {
            #expect(try story("blog/post").listingFolder == "blog/")
            #expect(try story("about").listingFolder == "")
            #expect(try story("blog/").listingFolder == "")
            #expect(try story("docs/guides/").listingFolder == "docs/")
            #expect(try story("docs/guides/index", #", "is_startpage": true"#).listingFolder == "docs/")
            #expect(try story("blog-index", #", "is_folder": true"#).listingFolder == "")
        }
    }
}
