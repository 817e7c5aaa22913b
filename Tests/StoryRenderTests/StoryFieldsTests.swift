import Mustache
import StoryModel
import StoryRender
import Testing

@Suite("story.id, story.alternates, story.translated_slugs and story.parent")
struct StoryFieldsTests {
    /// A blog with a start page, a post with every field, a sub-folder's start page, a story at
    /// the root, a folder without a start page and one whose start page has no page.
    static let stories: [Story] = testStories.filter { $0.uuid != "uuid-post" } + [
        parseStory(#"""
            {"uuid": "uuid-post", "id": 42, "full_slug": "blog/post", "name": "A post", "content": {"component": "page", "_uid": "p"},
             "alternates": [{"id": 7, "name": "Ein Beitrag", "slug": "beitrag", "full_slug": "de/blog/beitrag", "is_folder": false, "parent_id": 3}],
             "translated_slugs": [{"path": "blog/beitrag", "name": null, "lang": "de", "published": true}]}
            """#),
        makeStory(uuid: "uuid-2024", slug: "blog/2024/", name: "2024"),
        parseStory(#"{"uuid": "uuid-string-id", "id": "0f2c1a9e-7b1d-4c8e-9d7a-3b2a1c0d9e8f", "full_slug": "docs/guide", "name": "Guide", "content": {"component": "page", "_uid": "g"}, "alternates": null, "translated_slugs": null}"#),
        makeStory(uuid: "uuid-news", slug: "news/", name: "News"),
        makeStory(uuid: "uuid-item", slug: "news/item", name: "Item"),
    ]

    static let template = """
        id={{story.id}}|{{#story.id}}has id{{/story.id}}{{^story.id}}no id{{/story.id}}
        parent={{#story.parent}}<a href="{{href}}">{{name}}</a> {{full_slug}} {{slug}} {{uuid}}{{/story.parent}}{{^story.parent}}none{{/story.parent}}
        alternates={{#story.alternates}}{{full_slug}} ({{id}}, {{name}}){{/story.alternates}}{{^story.alternates}}none{{/story.alternates}}
        translated_slugs={{#story.translated_slugs}}{{lang}}:{{path}}:[{{name}}]{{/story.translated_slugs}}{{^story.translated_slugs}}none{{/story.translated_slugs}}
        """

    static func page(of slug: String) throws -> String {
        let renderer = PageRenderer(
            library: try TemplateLibrary(templates: ["pages/default": template]),
            resolver: TestResolver(stories: stories, withoutPage: ["uuid-global", "uuid-news"]))
        let story = try #require(stories.first { $0.fullSlug == slug })
        return try renderer.render(story).html
    }

    @Test("a story with an id, alternates and translated slugs in a folder with a start page sees them all")
    func everyField() throws {
        #expect(try Self.page(of: "blog/post") == """
            id=42|has id
            parent=<a href="../">Blog</a> blog/ blog uuid-blog
            alternates=de/blog/beitrag (7, Ein Beitrag)
            translated_slugs=de:blog/beitrag:[]
            """)
    }

    @Test("a sub-folder's start page has the folder above as its parent")
    func startPageParent() throws {
        #expect(try Self.page(of: "blog/2024/").contains("\nparent=<a href=\"../\">Blog</a> blog/ blog uuid-blog\n"))
    }

    @Test("absent values are absent: no id (a UUID-shaped id is no id), no lists for null, no parent at the root or without a start page")
    func absentFields() throws {
        let none = """
            id=|no id
            parent=none
            alternates=none
            translated_slugs=none
            """
        #expect(try Self.page(of: "about") == none.replacingOccurrences(of: "id=|no id", with: "id=2|has id"))
        #expect(try Self.page(of: "docs/guide") == none, "a folder without a start page; a UUID in id; null lists")
        #expect(try Self.page(of: "news/item") == none, "the folder's start page has no page")
        #expect(try Self.page(of: "home") == none)
    }
}
