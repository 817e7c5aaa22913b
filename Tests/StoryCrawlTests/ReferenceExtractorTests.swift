import Foundation
import StoryModel
import Testing
import TestSupport
@testable import StoryCrawl

extension StoryCrawlTests {
    @Suite("Reference extraction")
    struct ReferenceExtractorTests {
        private let postUUID = "3a526768-1d22-447e-9ddd-f4158a035edd"
        private let otherUUID = "0b87cb6f-b089-4dd2-a1e3-87f9427d0700"

        private func references(_ fields: String, slug: String = "docs/guides/setup", baseURL: String? = nil) throws -> [ExtractedReference] {
            ReferenceExtractor.references(in: try story("self", slug, fields: fields), baseURL: baseURL)
        }

        /// `kind path → target#anchor` lines, easy to compare.
        private func summary(_ references: [ExtractedReference]) -> [String] {
            references.map { "\($0.kind.rawValue) \($0.fieldPath) → \($0.reference)" + ($0.anchor.map { "#" + $0 } ?? "") }
        }

        @Test("finds story multilinks in nested blocks, with their anchor and cached slug")
        func multilinks() throws {
            let found = try references(#"""
                "link": \#(storyLink(postUUID, cached: "blog/post")),
                "body": [{"_uid": "1", "component": "text"}, {"_uid": "2", "component": "text"},
                         {"_uid": "3", "component": "grid", "columns": [\#(linkBlock(storyLink(otherUUID, cached: "/about", anchor: "team")))]}]
                """#)
            #expect(summary(found) == ["multilink link → \(postUUID)", "multilink body[2].columns[0].link → \(otherUUID)#team"])
            #expect(found[1].cachedURL == "about")
            #expect(found[1].lookupOrder == [.uuid(otherUUID), .slug("about")])
        }

        @Test("an empty story multilink is no link; email, asset and external url multilinks are not story links")
        func notLinks() throws {
            let found = try references(#"""
                "empty": \#(storyLink("")),
                "email": {"fieldtype": "multilink", "linktype": "email", "email": "a@example.com", "id": "", "cached_url": ""},
                "asset": {"fieldtype": "multilink", "linktype": "asset", "url": "https://a.example/f.pdf", "id": "", "cached_url": ""},
                "external": {"fieldtype": "multilink", "linktype": "url", "url": "https://github.com/x", "id": "", "cached_url": ""},
                "hash": {"fieldtype": "multilink", "linktype": "url", "url": "#", "id": "", "cached_url": "#"},
                "image": {"fieldtype": "asset", "filename": "https://a.example/[x](/y).png", "alt": "[x](/about)"}
                """#)
            #expect(found.isEmpty)
        }

        @Test("follows a story multilink by its cached slug when its id is empty")
        func cachedSlugOnly() throws {
            #expect(summary(try references(#""link": \#(storyLink("", cached: "blog/"))"#)) == ["multilink link → blog/"])
        }

        @Test("follows url multilinks into the site: root paths, relative paths and the base URL")
        func urlMultilinks() throws {
            let found = try references(#"""
                "a": {"fieldtype": "multilink", "linktype": "url", "url": "/about#team", "id": "", "cached_url": "/about#team"},
                "b": {"fieldtype": "multilink", "linktype": "url", "url": "", "id": "", "cached_url": "../faq"},
                "c": {"fieldtype": "multilink", "linktype": "url", "url": "https://base.example/blog/", "id": "", "cached_url": ""},
                "d": {"linktype": "url", "url": "/", "cached_url": "/"}
                """#, baseURL: "https://base.example")
            #expect(summary(found) == ["multilink a → about#team", "multilink b → docs/faq", "multilink c → blog/", "multilink d → home"])
        }

        @Test("finds richtext link marks by uuid with the href as fallback, and url links into the site")
        func richtextLinks() throws {
            let found = try references(#"""
                "text": {"type": "doc", "content": [
                  {"type": "paragraph"}, {"type": "paragraph"}, {"type": "horizontal_rule"},
                  {"type": "paragraph", "content": [
                    {"type": "text", "text": "see", "marks": [{"type": "bold"},
                      {"type": "link", "attrs": {"href": "/blog/post", "uuid": "\#(postUUID)", "anchor": "intro", "linktype": "story", "target": null}}]},
                    {"type": "text", "text": "by slug", "marks": [{"type": "link", "attrs": {"href": "/faq", "uuid": null, "linktype": "story"}}]},
                    {"type": "text", "text": "url", "marks": [{"type": "link", "attrs": {"href": "/contact", "linktype": "url"}}]},
                    {"type": "text", "text": "mail", "marks": [{"type": "link", "attrs": {"href": "a@example.com", "linktype": "email"}}]},
                    {"type": "text", "text": "[md](/not-markdown)"}
                  ]}]}
                """#)
            #expect(summary(found) == [
                "richtext text.content[3].content[0].marks[1] → \(postUUID)#intro",
                "richtext text.content[3].content[1].marks[0] → faq",
                "richtext text.content[3].content[2].marks[0] → contact",
            ])
            #expect(found[0].cachedURL == "blog/post")
            #expect(found[0].lookupOrder == [.uuid(postUUID), .slug("blog/post")])
        }

        @Test("follows the blocks inside richtext blok nodes, including richtext nested in them")
        func blokNodes() throws {
            let found = try references(#"""
                "body": [{"_uid": "1", "component": "section", "text": {"type": "doc", "content": [
                  {"type": "paragraph", "content": [{"type": "text", "text": "x"}]},
                  {"type": "paragraph"},
                  {"type": "blok", "attrs": {"id": "\#(otherUUID)", "body": [
                    \#(linkBlock(storyLink(postUUID))),
                    {"_uid": "i-2", "component": "note", "text": {"type": "doc", "content": [{"type": "paragraph", "content": [
                      {"type": "text", "text": "deep", "marks": [{"type": "link", "attrs": {"uuid": "\#(otherUUID)", "href": "/o", "linktype": "story"}}]}]}]}}
                  ]}}]}}]
                """#)
            #expect(summary(found) == [
                "multilink body[0].text.content[2].attrs.body[0].link → \(postUUID)",
                "richtext body[0].text.content[2].attrs.body[1].text.content[0].content[0].marks[0] → \(otherUUID)",
            ])
        }

        @Test("reads UUID-shaped option values as relations, alone or in arrays of nothing else, but never _uid, uuid or blok ids")
        func relations() throws {
            let found = try references(#"""
                "_uid": "\#(otherUUID)",
                "uuid": "\#(otherUUID)",
                "author": "\#(postUUID)",
                "categories": ["option-1", "\#(otherUUID)", "\#(postUUID)"],
                "related": ["\#(otherUUID)", "\#(postUUID)"],
                "colour": "red",
                "body": [{"_uid": "\#(postUUID)", "component": "list", "items": ["\#(otherUUID)"]}],
                "table": {"fieldtype": "table", "thead": [], "tbody": []},
                "plugin": {"plugin": "x", "selected": "\#(postUUID)"}
                """#)
            #expect(summary(found) == [
                "relation author → \(postUUID)",
                "relation related[0] → \(otherUUID)",
                "relation related[1] → \(postUUID)",
                "relation body[0].items[0] → \(otherUUID)",
            ])
        }

        @Test("reads objects as the render does: fieldtype first, then richtext, link and asset shapes; only blocks in a blok's body")
        func objectKinds() throws {
            let found = try references(#"""
                "custom": {"fieldtype": "custom", "linktype": "story", "id": "\#(postUUID)", "cached_url": "blog/post"},
                "image": {"filename": "/assets/a.png", "alt": "[x](/about)", "link": \#(storyLink(otherUUID))},
                "table": {"fieldtype": "table", "type": "doc", "tbody": [{"_uid": "r", "component": "_table_row",
                  "body": [{"_uid": "c", "component": "_table_col", "value": "\#(otherUUID)"}]}]},
                "text": {"type": "doc", "linktype": "story", "cached_url": "gone", "content": [
                  {"type": "blok", "attrs": {"body": [\#(storyLink(otherUUID)), \#(linkBlock(storyLink(postUUID)))]}}]}
                """#)
            #expect(summary(found) == [
                "multilink custom → \(postUUID)",
                "relation table.tbody[0].body[0].value → \(otherUUID)",
                "multilink text.content[0].attrs.body[1].link → \(postUUID)",
            ])
        }

        @Test("keeps a resolved relation's or link's story so the crawler need not fetch it")
        func resolvedStories() throws {
            let found = try references(#"""
                "articles": [{"uuid": "\#(postUUID)", "full_slug": "blog/post", "name": "Post", "content": {"component": "article",
                  "related": \#(storyLink(otherUUID))}}],
                "link": {"fieldtype": "multilink", "linktype": "story", "id": "\#(otherUUID)", "cached_url": "other",
                  "story": {"uuid": "\#(otherUUID)", "full_slug": "other", "content": {"component": "page"}}}
                """#)
            #expect(summary(found) == ["relation articles[0] → \(postUUID)", "multilink link → \(otherUUID)"])
            #expect(found[0].embeddedStory?.name == "Post")
            #expect(found[1].embeddedStory?.fullSlug == "other")
        }

        @Test("finds Markdown links to site paths in any string field, relative to the story's folder")
        func markdown() throws {
            let markdown = """
                Read [the post](/blog/post), [the folder](/blog/ "Blog"), [intro](/blog/post#intro),
                [a sibling](./install), [up](../faq), [spaced](< /about >), [bare](contact)
                but not ![img](/assets/a.png), [ext](https://example.com), [mail](mailto:a@b.c), [top](#top), [x]().
                """.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
            let found = try references(#""body": [{"_uid": "1", "component": "md", "text": "\#(markdown)"}], "title": "no links [here]""#)
            #expect(summary(found) == [
                "markdown body[0].text → blog/post",
                "markdown body[0].text → blog/",
                "markdown body[0].text → blog/post#intro",
                "markdown body[0].text → docs/guides/install",
                "markdown body[0].text → docs/faq",
                "markdown body[0].text → about",
                "markdown body[0].text → docs/guides/contact",
            ])
            #expect(found.allSatisfy { $0.cachedURL == nil && $0.lookupOrder == [$0.reference] })
        }

        @Test("reads Markdown links to the base URL and with nested parentheses")
        func markdownEdgeCases() throws {
            let found = try references(#""text": "[a](https://base.example/about) [b](/wiki/a_(b)) [c](/x)]( [d](/y)""#,
                                       slug: "home", baseURL: "https://base.example/")
            #expect(summary(found) == ["markdown text → about", "markdown text → wiki/a_(b)", "markdown text → x", "markdown text → y"])
        }

        @Test("lists references of every kind in document order")
        func documentOrder() throws {
            let found = try references(#"""
                "intro": "[md](/a)",
                "hero": [\#(linkBlock(storyLink(postUUID)))],
                "text": {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": "x",
                  "marks": [{"type": "link", "attrs": {"uuid": "\#(otherUUID)", "linktype": "story"}}]}]}]},
                "related": ["\#(postUUID)"]
                """#)
            #expect(found.map(\.kind) == [.markdown, .multilink, .richtext, .relation])
        }

        @Test("finds the story links in the real Storyblok fixtures",
              .enabled(if: SharedFixtures.available("storyblok-fixtures/laravel-storyblok"),
                       "../shared/storyblok-fixtures/laravel-storyblok is absent: real content shapes are not checked"))
        func realContent() throws {
            func load(_ name: String) throws -> Story {
                let url = try #require(SharedFixtures.url("storyblok-fixtures/laravel-storyblok/\(name)"))
                return try Story(json: try #require(try JSONValue(parsing: Data(contentsOf: url))["story"]?.objectValue))
            }
            let allFields = ReferenceExtractor.references(in: try load("all-fields.json"), baseURL: nil)
            #expect(summary(allFields) == [
                "multilink link_story → 8a6eee6b-025e-484e-9219-8ad6596a74fa",
                "multilink link_anchor → 8a6eee6b-025e-484e-9219-8ad6596a74fa#the-anchor",
            ])
            let richtext = ReferenceExtractor.references(in: try load("richtext.json"), baseURL: nil)
            #expect(summary(richtext) == ["multilink body.content[3].attrs.body[1].link → 5ff6d20f-0685-4760-9374-483e2779d079"])
            let relation = ReferenceExtractor.references(in: try load("relation.json"), baseURL: nil)
            #expect(summary(relation) == [
                "relation single_option_story → aa2cd950-da3a-4d7e-9c51-5eaaf5e0af46",
                "relation multi_options_stories[0] → aa2cd950-da3a-4d7e-9c51-5eaaf5e0af46",
                "relation multi_options_stories[1] → cb1bb01a-e414-49ed-85d0-03f63f35171f",
            ])
            let page = ReferenceExtractor.references(in: try load("ep16.json"), baseURL: nil)
            #expect(summary(page) == [
                "relation features[0].body[8].links[0] → 15da551b-9937-440f-9ec6-185027fbff52",
                "relation features[0].body[8].links[1] → 85b23871-b146-4db5-8ae8-ff524d2e5747",
            ])
        }
    }
}
