import Testing
@testable import StoryModel
import TestSupport

extension StoryModelTests {
    @Suite("Field-level translation")
    struct StoryTranslationTests {
        /// A story read into a tape, as from a file (see ``treeAndTapeAgree()`` for one made
        /// from a tree).
        private func story(_ json: String) throws -> Story {
            try Story(tape: try JSONTape(parsing: Array(json.utf8)))
        }

        /// A story whose root block is `content`.
        private func story(content: String, extra: String = "") throws -> Story {
            try story(#"{"uuid": "u1", "name": "About", "full_slug": "about", "lang": "default"\#(extra), "content": \#(content)}"#)
        }

        private func json(_ text: String) throws -> JSONValue {
            try JSONValue(parsing: text)
        }

        @Test("a story read into a tape translates to the content, object and digest of the same story made from a tree")
        func treeAndTapeAgree() throws {
            let json = #"""
                {"uuid": "u1", "name": "About", "lang": "default", "full_slug": "about",
                 "translated_slugs": [{"lang": "de", "name": "Über", "path": "ueber"}],
                 "content": {"component": "page", "title": "Hi", "title__i18n__de": "Hallo", "intro__i18n__de": "Neu",
                   "body": [{"component": "text", "text": {"type": "doc", "content": []}, "text__i18n__de": {"type": "doc", "content": [
                     {"type": "blok", "attrs": {"body": [{"component": "cta", "label": "Go", "label__i18n__de": "Los"}]}}]}}],
                   "empty__i18n__de": "", "count": 3, "n__i18n__fr": "non"},
                 "tag_list": ["a"]}
                """#
            let fromTape = try story(json)
            let fromTree = try Story(json: try #require(try JSONValue(parsing: json).objectValue))
            for (language, isDefault) in [("de", false), ("en", true), ("fr", false)] {
                let tape = fromTape.translated(to: language, isDefault: isDefault)
                let tree = fromTree.translated(to: language, isDefault: isDefault)
                #expect(tape.content == tree.content, "\(language)")
                #expect(tape.raw == tree.raw, "\(language)")
                #expect(tape.raw.keys == tree.raw.keys, "\(language)")
                #expect(tape.digest == tree.digest, "\(language)")
                #expect((tape.name, tape.rootComponent, tape.contentField("title")) == (tree.name, tree.rootComponent, tree.contentField("title")))
            }
        }

        @Test("a translated field takes its translation in its own position; an untranslated one keeps its value")
        func translatedAndUntranslated() throws {
            let original = try story(content: #"""
                {"component": "page", "headline": "Hello", "headline__i18n__de": "Hallo", "intro": "Welcome", "_uid": "1"}
                """#)
            let german = original.translated(to: "de", isDefault: false)
            #expect(german.content == (try json(#"{"component": "page", "headline": "Hallo", "intro": "Welcome", "_uid": "1"}"#)))
            #expect(german.content.objectValue?.keys == ["component", "headline", "intro", "_uid"])
        }

        @Test("a translation placed before its field still lands in the field's position")
        func keyOrder() throws {
            let original = try story(content: #"""
                {"title__i18n__de": "Titel", "component": "page", "title": "Title", "text": "Text", "text__i18n__de": "Inhalt"}
                """#)
            let german = original.translated(to: "de", isDefault: false)
            #expect(german.content.objectValue?.keys == ["component", "title", "text"])
            #expect(german.content["title"]?.stringValue == "Titel")
            #expect(german.content["text"]?.stringValue == "Inhalt")
        }

        @Test("an empty, null or empty-list translation falls back to the default value", arguments: [#""""#, "null", "[]"])
        func emptyFallsBack(translation: String) throws {
            let original = try story(content: #"{"component": "page", "headline": "Hello", "headline__i18n__de": \#(translation)}"#)
            let german = original.translated(to: "de", isDefault: false)
            #expect(german.content == (try json(#"{"component": "page", "headline": "Hello"}"#)))
        }

        @Test("non-empty values of other kinds translate: false, 0, an object, a list")
        func otherKinds() throws {
            let original = try story(content: #"""
                {"component": "page", "flag": true, "flag__i18n__de": false, "count": "1", "count__i18n__de": 0,
                 "tags": ["a"], "tags__i18n__de": ["b", "c"]}
                """#)
            let german = original.translated(to: "de", isDefault: false)
            #expect(german.content == (try json(#"{"component": "page", "flag": false, "count": 0, "tags": ["b", "c"]}"#)))
        }

        @Test("blocks nested in arrays at any depth are translated; the blocks field itself is not")
        func nestedBlocks() throws {
            let original = try story(content: #"""
                {"component": "page", "body": [
                  {"component": "teaser", "headline": "One", "headline__i18n__de": "Eins"},
                  {"component": "grid", "columns": [
                    {"component": "text", "text": "Two", "text__i18n__de": "Zwei", "text__i18n__fr": "Deux"},
                    {"component": "text", "text": "Three"}
                  ]}
                ]}
                """#)
            let german = original.translated(to: "de", isDefault: false)
            #expect(german.content == (try json(#"""
                {"component": "page", "body": [
                  {"component": "teaser", "headline": "Eins"},
                  {"component": "grid", "columns": [
                    {"component": "text", "text": "Zwei"},
                    {"component": "text", "text": "Three"}
                  ]}
                ]}
                """#)))
        }

        @Test("a richtext document is a translated value as a whole, and the blocks inside one are translated")
        func richtext() throws {
            let original = try story(content: #"""
                {"component": "page",
                 "text": {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": "Hello"}]}]},
                 "text__i18n__de": {"type": "doc", "content": [
                   {"type": "paragraph", "content": [{"type": "text", "text": "Hallo"}]},
                   {"type": "blok", "attrs": {"body": [{"component": "quote", "by": "Me", "by__i18n__de": "Ich"}]}}
                 ]}}
                """#)
            let german = original.translated(to: "de", isDefault: false)
            #expect(german.content["text"] == (try json(#"""
                {"type": "doc", "content": [
                  {"type": "paragraph", "content": [{"type": "text", "text": "Hallo"}]},
                  {"type": "blok", "attrs": {"body": [{"component": "quote", "by": "Ich"}]}}
                ]}
                """#)))
            #expect(german.content.objectValue?.keys == ["component", "text"])
        }

        @Test("translation keys of other languages are removed, and a language code is matched whole")
        func otherLanguages() throws {
            let original = try story(content: #"""
                {"component": "page", "headline": "Hello", "headline__i18n__fr": "Bonjour", "headline__i18n__de-at": "Servus"}
                """#)
            let german = original.translated(to: "de", isDefault: false)
            #expect(german.content == (try json(#"{"component": "page", "headline": "Hello"}"#)))
            let austrian = original.translated(to: "de-at", isDefault: false)
            #expect(austrian.content["headline"]?.stringValue == "Servus")
        }

        @Test("the default language takes no translation and drops every __i18n__ key")
        func defaultLanguage() throws {
            let original = try story(content: #"""
                {"component": "page", "headline": "Hello", "headline__i18n__de": "Hallo",
                 "body": [{"component": "text", "text": "A", "text__i18n__default": "B"}]}
                """#)
            let standard = original.translated(to: "default", isDefault: true)
            #expect(standard.content == (try json(#"{"component": "page", "headline": "Hello", "body": [{"component": "text", "text": "A"}]}"#)))
            #expect(standard.raw["lang"]?.stringValue == "default")
        }

        @Test("a translation whose default field is absent takes the field's name in its own position")
        func translationWithoutDefault() throws {
            let original = try story(content: #"{"component": "page", "subtitle__i18n__de": "Untertitel", "_uid": "1"}"#)
            #expect(original.translated(to: "de", isDefault: false).content.objectValue?.keys == ["component", "subtitle", "_uid"])
            #expect(original.translated(to: "de", isDefault: false).content["subtitle"]?.stringValue == "Untertitel")
            #expect(original.translated(to: "fr", isDefault: false).content.objectValue?.keys == ["component", "_uid"])
        }

        @Test("objects and arrays with nothing to translate are returned as they are, not copied")
        func sharedWhenUnchanged() throws {
            let untouched = try json(#"{"component": "grid", "columns": [{"component": "text", "text": "A"}], "long_key_without_marker": "x"}"#)
            let tree = JSONValue.object(JSONObject([
                "component": .string("page"),
                "title": .string("Title"), "title__i18n__de": .string("Titel"),
                "body": .array([untouched]),
            ]))
            let translated = tree.translated(to: "de", isDefault: false)
            #expect(translated["title"]?.stringValue == "Titel")
            let before = untouched.objectValue!.entries.withUnsafeBufferPointer { $0.baseAddress }
            let after = translated["body"]?.arrayValue?.first?.objectValue?.entries.withUnsafeBufferPointer { $0.baseAddress }
            #expect(before == after)

            let plain = try story(content: #"{"component": "page", "body": [{"component": "text", "text": "A"}]}"#)
            let english = plain.translated(to: "de", isDefault: false)
            #expect(english.content == plain.content)
            // On a tape, the translation shares the story's string bytes. (Not the addresses of their
            // content trees: a story on a tape makes its tree anew each time it is asked, so those
            // would compare the allocator's reuse of memory, which AddressSanitizer does not do.)
            let strings = { (story: Story) in story.contentOnTape?.tape.strings.withUnsafeBufferPointer { $0.baseAddress } }
            #expect(strings(english) != nil && strings(english) == strings(plain))
        }

        @Test("the name comes from the language's translated_slugs entry when non-empty, else stays the default")
        func name() throws {
            let slugs = #", "translated_slugs": [{"path": "ueber-uns", "name": "Über uns", "lang": "de"}, {"path": "a-propos", "name": "", "lang": "fr"}]"#
            let original = try story(content: #"{"component": "page"}"#, extra: slugs)
            let german = original.translated(to: "de", isDefault: false)
            #expect(german.name == "Über uns")
            #expect(german.raw["name"]?.stringValue == "Über uns")
            #expect(original.translated(to: "fr", isDefault: false).name == "About")
            #expect(original.translated(to: "it", isDefault: false).name == "About")
            #expect(original.translated(to: "de", isDefault: true).name == "About")
            #expect(try story(content: #"{"component": "page"}"#).translated(to: "de", isDefault: false).name == "About")
        }

        @Test("full_slug stays the default; lang is the language; the rest of raw stays")
        func rawKeys() throws {
            let original = try story(content: #"{"component": "page"}"#, extra: #", "id": 7, "tag_list": ["x"], "translated_slugs": [{"path": "ueber-uns", "lang": "de"}]"#)
            let german = original.translated(to: "de", isDefault: false)
            #expect(german.fullSlug == "about")
            #expect(german.raw["full_slug"]?.stringValue == "about")
            #expect(german.raw["lang"]?.stringValue == "de")
            #expect(german.uuid == original.uuid)
            #expect(german.id == 7)
            #expect(german.tags == ["x"])
            #expect(german.raw["translated_slugs"] == original.raw["translated_slugs"])
            #expect(german.raw.keys == original.raw.keys)
        }

        @Test("each language's story has its own digest, which changes only when that language's story does")
        func digest() throws {
            let original = try story(content: #"{"component": "page", "headline": "Hello", "headline__i18n__de": "Hallo"}"#)
            let digests = [
                original.digest,
                original.translated(to: "de", isDefault: false).digest,
                original.translated(to: "fr", isDefault: false).digest,
                original.translated(to: "default", isDefault: true).digest,
            ]
            #expect(Set(digests).count == 4)
            #expect(original.translated(to: "de", isDefault: false).digest == digests[1])
            let edited = try story(content: #"{"component": "page", "headline": "Hello", "headline__i18n__de": "Servus"}"#)
            #expect(edited.translated(to: "de", isDefault: false).digest != digests[1])
            #expect(edited.translated(to: "fr", isDefault: false).digest == digests[2], "French reads the same")
            #expect(edited.translated(to: "default", isDefault: true).digest == digests[3], "so does the default language")
        }

        @Test("a story from a file notes its translation's digest; one that knows it is translated without reading its content, as the same translation")
        func knownDigest() throws {
            let text = #"{"uuid": "u1", "name": "About", "full_slug": "about", "translated_slugs": [{"lang": "de", "name": "Über"}], "content": {"component": "page", "headline": "Hello", "headline__i18n__de": "Hallo"}}"#
            let object = try #require(try JSONValue(parsing: text).objectValue)
            let read = try Story(json: object, digest: "file-digest")
            let eager = read.translated(to: "de", isDefault: false)
            #expect(read.translationDigests.all == ["de": eager.digest])
            #expect(try story(text).translated(to: "de", isDefault: false).digest == eager.digest)

            let reads = Locked(0)
            let deferred = try Story(head: read.head, digest: "file-digest", translationDigests: read.translationDigests.all) {
                reads.withLock { $0 += 1 }
                return (try! JSONTape(parsing: Array(text.utf8)), 0)
            }
            let lazy = deferred.translated(to: "de", isDefault: false)
            #expect(lazy.name == "Über" && lazy.head == eager.head && lazy.digest == eager.digest)
            #expect(reads.withLock { $0 } == 0)
            #expect(lazy.raw == eager.raw && lazy.content["headline"]?.stringValue == "Hallo")
            #expect(reads.withLock { $0 } == 1)
            // Another language is not known: it is translated from the content, and noted.
            let french = deferred.translated(to: "fr", isDefault: false)
            #expect(french.content["headline"]?.stringValue == "Hello")
            #expect(deferred.translationDigests.all.keys.sorted() == ["de", "fr"])
        }

        @Test("the path in a language is the translated_slugs path, normalised, else full_slug", arguments: [
            ("about", #"[{"path": "ueber-uns", "lang": "de"}]"#, "ueber-uns"),
            ("about", #"[{"path": "/ueber-uns", "lang": "de"}]"#, "ueber-uns"),
            ("about", #"[{"path": "ueber-uns/", "lang": "de"}]"#, "ueber-uns"),
            ("blog/", #"[{"path": "magazin", "lang": "de"}]"#, "magazin/"),
            ("blog/", #"[{"path": "magazin/", "lang": "de"}]"#, "magazin/"),
            ("about", #"[{"path": "", "lang": "de"}]"#, "about"),
            ("about", #"[{"path": "/", "lang": "de"}]"#, "about"),
            ("about", #"[{"path": null, "lang": "de"}]"#, "about"),
            ("about", #"[{"path": "a-propos", "lang": "fr"}]"#, "about"),
            ("about", "[]", "about"),
            ("about", "null", "about"),
        ])
        func path(fullSlug: String, translatedSlugs: String, expected: String) throws {
            let original = try story(#"{"uuid": "u", "full_slug": "\#(fullSlug)", "translated_slugs": \#(translatedSlugs), "content": {}}"#)
            #expect(original.path(in: "de") == expected)
        }

        @Test("the path in the default language, or with no translated_slugs, is full_slug")
        func pathDefault() throws {
            let original = try story(#"{"uuid": "u", "full_slug": "/blog/post", "content": {}}"#)
            #expect(original.path(in: "de") == "blog/post")
            #expect(original.path(in: "default") == "blog/post")
        }
    }
}
