import FakeStoryblokAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StoryModel
import Testing
@testable import StorySource

/// Stories with translatable fields and translated slugs: a start page `blog/` (`magazin/` in
/// German), a post in it, and `about` (`ueber-uns`) relating to the post.
private func translatableStories() throws -> [Story] {
    let objects = [
        #"""
        {"id": 1, "uuid": "u-blog", "name": "Blog", "full_slug": "blog/", "lang": "default",
         "translated_slugs": [{"path": "magazin/", "name": "Magazin", "lang": "de"}],
         "content": {"component": "page", "_uid": "b1", "title": "Blog", "title__i18n__de": "Magazin"}}
        """#,
        #"""
        {"id": 2, "uuid": "u-post", "name": "Post", "full_slug": "blog/post", "tag_list": ["news"],
         "translated_slugs": [{"path": "magazin/beitrag", "name": "Beitrag", "lang": "de"}],
         "content": {"component": "post", "_uid": "p1", "body": [
           {"component": "text", "_uid": "p2", "text": "Hello", "text__i18n__de": "Hallo", "text__i18n__fr": "Bonjour"},
           {"component": "text", "_uid": "p3", "text": "Only English", "text__i18n__de": ""}
         ]}}
        """#,
        #"""
        {"id": 3, "uuid": "u-about", "name": "About", "full_slug": "about",
         "translated_slugs": [{"path": "ueber-uns", "name": "Über uns", "lang": "de"}],
         "content": {"component": "page", "_uid": "a1", "title": "About us", "title__i18n__de": "Über uns"}}
        """#,
    ]
    return try objects.map { text in
        guard case .object(let object) = try JSONValue(parsing: text) else { throw StoryDecodingError.notAnObject }
        return try Story(json: object)
    }
}

extension JSONValue {
    /// The element at `index` when this is an array that long.
    fileprivate subscript(index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

/// Whether any key below `value` contains `__i18n__`.
private func hasTranslationKeys(_ value: JSONValue?) -> Bool {
    switch value {
    case .object(let object)?: return object.contains { $0.key.contains("__i18n__") || hasTranslationKeys($0.value) }
    case .array(let array)?: return array.contains { hasTranslationKeys($0) }
    default: return false
    }
}

extension StorySourceTests {
    /// The fake API asked directly for languages: `language=<code>` answers translated stories
    /// with translated `full_slug`s, as the Content Delivery API does with Translatable Slugs.
    @Suite("Fake Content Delivery API: languages")
    struct FakeAPILanguageTests {
        private static let session = URLSession(configuration: .ephemeral)

        private func get(_ fake: RunningFake, _ target: String) async throws -> JSONValue {
            let url = URL(string: fake.baseURL.absoluteString + "/" + target + "&token=\(secretToken)")!
            let (data, response) = try await Self.session.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(target)")
            return try JSONValue(parsing: [UInt8](data))
        }

        @Test("without language, or with default, stories come without __i18n__ keys, in lang default")
        func defaultLanguage() async throws {
            let fake = try RunningFake(try translatableStories())
            for language in ["", "&language=default"] {
                let single = try await get(fake, "stories/blog/post?version=published\(language)")
                let story = try #require(single["story"])
                #expect(!hasTranslationKeys(story))
                #expect(story["lang"]?.stringValue == "default")
                #expect(story["full_slug"]?.stringValue == "blog/post")
                #expect(story["default_full_slug"] == nil)
                #expect(story["content"]?["body"]?[0]?["text"]?.stringValue == "Hello")
                #expect(story["content"]?["body"]?.arrayValue?.first?.objectValue?.keys == ["component", "_uid", "text"])
                let list = try await get(fake, "stories?starts_with=blog/\(language)")
                #expect(list["stories"]?.arrayValue?.map { $0["full_slug"]?.stringValue } == ["blog/", "blog/post"])
                #expect(list["stories"]?.arrayValue?.contains { hasTranslationKeys($0) } == false)
            }
        }

        @Test("language=de answers single stories, lists and rels translated, with translated full_slug and default_full_slug")
        func german() async throws {
            let fake = try RunningFake(try translatableStories())
            fake.api.relate("u-about", to: ["u-post"])

            let single = try await get(fake, "stories/about?language=de")
            let about = try #require(single["story"])
            #expect(about["full_slug"]?.stringValue == "ueber-uns")
            #expect(about["default_full_slug"]?.stringValue == "about")
            #expect(about["lang"]?.stringValue == "de")
            #expect(about["name"]?.stringValue == "Über uns")
            #expect(about["content"] == (try JSONValue(parsing: #"{"component": "page", "_uid": "a1", "title": "Über uns"}"#)))
            #expect(about["translated_slugs"]?.arrayValue?.count == 1)

            let related = try #require(single["rels"]?.arrayValue?.first)
            #expect(related["full_slug"]?.stringValue == "magazin/beitrag")
            #expect(related["default_full_slug"]?.stringValue == "blog/post")
            #expect(related["content"]?["body"]?[0]?["text"]?.stringValue == "Hallo")
            #expect(related["content"]?["body"]?[1]?["text"]?.stringValue == "Only English")
            #expect(!hasTranslationKeys(related))

            let byUUID = try await get(fake, "stories/u-blog?find_by=uuid&language=de")
            #expect(byUUID["story"]?["full_slug"]?.stringValue == "magazin/")
            #expect(byUUID["story"]?["content"]?["title"]?.stringValue == "Magazin")

            // Lists are found by the default slugs, and answered translated.
            let list = try await get(fake, "stories?by_slugs=blog/,blog/post&language=de")
            let stories = try #require(list["stories"]?.arrayValue)
            #expect(stories.map { $0["full_slug"]?.stringValue } == ["magazin/", "magazin/beitrag"])
            #expect(stories.map { $0["default_full_slug"]?.stringValue } == ["blog/", "blog/post"])
            #expect(stories.allSatisfy { $0["lang"]?.stringValue == "de" && !hasTranslationKeys($0) })
            let folder = try await get(fake, "stories?starts_with=blog/&with_tag=news&language=de")
            #expect(folder["stories"]?.arrayValue?.map { $0["uuid"]?.stringValue } == ["u-post"])

            // A language without translations falls back to the default values.
            let italian = try await get(fake, "stories/about?language=it")
            #expect(italian["story"]?["full_slug"]?.stringValue == "about")
            #expect(italian["story"]?["lang"]?.stringValue == "it")
            #expect(italian["story"]?["content"]?["title"]?.stringValue == "About us")
        }
    }

    /// The Storyblok source in a language: the API's translated `full_slug`s are read back into
    /// the content tree's one structure.
    @Suite("Storyblok source: languages")
    struct StoryblokLanguageTests {
        @Test("a language=de source finds stories by their default slugs, keeps full_slug the default and reads the translated path and content")
        func german() async throws {
            let fake = try RunningFake(try translatableStories())
            fake.api.relate("u-about", to: ["u-post"])
            let source = fake.source(language: "de")

            let found = try await source.stories(for: [.slug("about"), .slug("ueber-uns")])
            #expect(found.keys.sorted() == [.slug("about")])
            let about = try #require(found[.slug("about")])
            #expect(about.fullSlug == "about")
            #expect(about.path(in: "de") == "ueber-uns")
            #expect(about.name == "Über uns")
            #expect(about.raw["lang"]?.stringValue == "de")
            #expect(about.content["title"]?.stringValue == "Über uns")
            #expect(fake.storyRequests.allSatisfy { $0.query["language"] == "de" })

            // The post came in rels: kept under its default slug, never fetched.
            fake.api.resetLog()
            let post = try #require(try await source.stories(for: [.slug("blog/post")])[.slug("blog/post")])
            #expect(fake.storyRequests.isEmpty)
            #expect(post.fullSlug == "blog/post")
            #expect(post.path(in: "de") == "magazin/beitrag")
            #expect(post.content["body"]?[0]?["text"]?.stringValue == "Hallo")

            let blog = try await source.stories(matching: StoryQuery(folder: "blog/"))
            #expect(blog.map(\.fullSlug) == ["blog/", "blog/post"])
            #expect(blog.first?.isStartPage == true)
            #expect(blog.first?.path(in: "de") == "magazin/")
            #expect(blog.first?.content["title"]?.stringValue == "Magazin")
        }

        @Test("a source without a language reads the default structure and content, without __i18n__ keys")
        func defaultLanguage() async throws {
            let fake = try RunningFake(try translatableStories())
            let source = fake.source()
            let found = try await source.stories(for: [.uuid("u-about"), .slug("blog")])
            let about = try #require(found[.uuid("u-about")])
            #expect(about.fullSlug == "about")
            #expect(about.name == "About")
            #expect(about.content == (try JSONValue(parsing: #"{"component": "page", "_uid": "a1", "title": "About us"}"#)))
            #expect(about.path(in: "de") == "ueber-uns")
            #expect(found[.slug("blog")]?.uuid == "u-blog")
        }
    }
}
