import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Folding a translation back into a story")
    struct TranslationMergeTests {
        private let exported = #"""
            {"uuid": "u", "full_slug": "about", "name": "About",
             "translated_slugs": [{"path": "ueber-uns", "name": "Über uns", "lang": "de"}],
             "content": {"component": "page", "_uid": "1", "title": "About us", "title__i18n__de": "Über uns",
               "intro": "Same in both", "intro__i18n__de": "",
               "text": {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": "Hello"}]}]},
               "text__i18n__de": {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": "Hallo"}]}]},
               "body": [{"component": "teaser", "_uid": "2", "label": "Read", "label__i18n__de": "Lesen", "url": "/x"},
                        {"component": "teaser", "_uid": "3", "label": "More"}]}}
            """#

        @Test("what the API answers per language folds back into a story that translates to the same")
        func roundTrip() throws {
            let story = try Story(json: try #require(try JSONValue(parsing: exported).objectValue))
            let english = story.translated(to: "en", isDefault: true)
            let german = story.translated(to: "de", isDefault: false)
            let folded = english.addingTranslation(german, language: "de")
            #expect(folded.translated(to: "de", isDefault: false).content == german.content)
            #expect(folded.translated(to: "en", isDefault: true).content == english.content)
            let body = try #require(folded.content["body"]?.arrayValue)
            #expect(body[0]["label__i18n__de"] == .string("Lesen"), "a nested block's field is folded in place")
            #expect(body[1]["label__i18n__de"] == nil, "an untranslated field gets no translation")
            #expect(folded.content["intro__i18n__de"] == nil, "a value the same in both languages is not repeated")
            #expect(folded.content["text__i18n__de"] != nil, "richtext is one field")
        }
    }
}
