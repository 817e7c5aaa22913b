import Foundation
import StoryModel
import Testing
import TestSupport
@testable import StorySource

extension StorySourceTests {
    @Suite("Translated folder source")
    struct LocalFolderTranslationTests {
        /// A folder with a start page, two posts (one translated, tagged) and an about page whose
        /// slug is translated.
        private func folder() throws -> TemporaryFolder {
            let folder = try TemporaryFolder()
            try folder.write("blog.json", #"""
                {"uuid": "u-blog", "id": 1, "name": "Blog", "full_slug": "blog/",
                 "translated_slugs": [{"path": "magazin", "name": "Magazin", "lang": "de"}],
                 "content": {"component": "page", "title": "Blog", "title__i18n__de": "Magazin"}}
                """#)
            try folder.write("blog/b.json", #"""
                {"uuid": "u-b", "id": 2, "full_slug": "blog/b", "tag_list": ["hot"],
                 "content": {"component": "post", "body": [{"component": "text", "text": "B", "text__i18n__de": "Be"}]}}
                """#)
            try folder.write("blog/a.json", #"{"uuid": "u-a", "id": 3, "full_slug": "blog/a", "content": {"component": "post", "text": "A"}}"#)
            try folder.write("about.json", #"""
                {"uuid": "u-about", "id": 4, "name": "About", "full_slug": "about",
                 "translated_slugs": [{"path": "ueber-uns", "name": "Über uns", "lang": "de"}],
                 "content": {"component": "page", "title": "About", "title__i18n__de": "Über uns", "title__i18n__fr": "À propos"}}
                """#)
            return folder
        }

        @Test("answers every lookup and query as the folder does, with the stories translated")
        func lookups() async throws {
            let folder = try folder()
            let base = try LocalFolderSource(folder: folder.url, displayPath: "Content")
            let german = base.translated(to: "de", isDefault: false, jobs: 4)
            #expect(german.description == "Content/ (de)")

            let baseAll = try #require(try await base.allStories())
            let all = try #require(try await german.allStories())
            #expect(all.map(\.uuid) == baseAll.map(\.uuid))
            #expect(all.map(\.fullSlug) == baseAll.map(\.fullSlug))
            #expect(all.allSatisfy { $0.raw["lang"]?.stringValue == "de" })

            for reference in [StoryReference.uuid("u-about"), .id(4), .slug("about"), .slug("/about/")] {
                let story = try #require(german.story(for: reference), "\(reference)")
                #expect(story.uuid == "u-about")
                #expect(story.name == "Über uns")
                #expect(story.content["title"]?.stringValue == "Über uns")
                #expect(story.path(in: "de") == "ueber-uns")
            }
            #expect(german.story(for: .slug("ueber-uns")) == nil)  // slugs stay the default ones
            #expect(german.story(for: .slug("blog"))?.content["title"]?.stringValue == "Magazin")
            #expect(german.story(for: .slug("blog"))?.path(in: "de") == "magazin/")

            let found = try await german.stories(for: [.uuid("u-b"), .id(3), .slug("nowhere")])
            #expect(found.keys.sorted() == [.uuid("u-b"), .id(3)])
            #expect(found[.uuid("u-b")]?.content["body"]?.arrayValue?.first?["text"]?.stringValue == "Be")

            #expect(try await german.stories(matching: StoryQuery(folder: "blog/")).map(\.fullSlug) == ["blog/", "blog/a", "blog/b"])
            #expect(german.stories(answering: StoryQuery(folder: "blog/", tag: "hot")).map(\.uuid) == ["u-b"])
            #expect(german.stories(answering: StoryQuery(folder: "")).map(\.uuid)
                == base.stories(answering: StoryQuery(folder: "")).map(\.uuid))
            #expect(german.file(ofStory: "u-about") == "Content/about.json")
        }

        @Test("the default language drops every __i18n__ key, and each language has its own digests")
        func defaultLanguage() async throws {
            let folder = try folder()
            let base = try LocalFolderSource(folder: folder.url)
            let standard = base.translated(to: "en", isDefault: true, jobs: 1)
            let about = try #require(standard.story(for: .uuid("u-about")))
            #expect(about.content == (try JSONValue(parsing: #"{"component": "page", "title": "About"}"#)))
            #expect(about.name == "About")
            #expect(about.raw["lang"]?.stringValue == "en")

            let french = base.translated(to: "fr", isDefault: false, jobs: 2)
            #expect(french.story(for: .uuid("u-about"))?.content["title"]?.stringValue == "À propos")
            #expect(french.story(for: .uuid("u-about"))?.name == "About")
            let sources: [any InMemoryStorySource] = [base, standard, french]
            let digests = sources.map { $0.story(for: .uuid("u-about"))?.digest }
            #expect(Set(digests).count == 3)
        }
    }
}
