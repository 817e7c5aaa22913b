import Foundation
import Testing
import TestSupport
@testable import StoryModel

extension StoryModelTests {
    @Suite("Story decoding")
    struct StoryDecodingTests {
        private func story(_ json: String) throws -> Story {
            guard case .object(let object) = try JSONValue(parsing: json) else { throw StoryDecodingError.notAnObject }
            return try Story(json: object)
        }

        private func decodingError(_ json: String) throws -> StoryDecodingError? {
            guard case .object(let object) = try JSONValue(parsing: json) else { return .notAnObject }
            do {
                _ = try Story(json: object)
                return nil
            } catch {
                return error
            }
        }

        @Test("needs only uuid, full_slug and content; the rest falls back sensibly")
        func minimal() throws {
            let story = try story(#"{"uuid": "u1", "full_slug": "blog/first-post", "content": {"component": "page"}}"#)
            #expect(story.uuid == "u1")
            #expect(story.fullSlug == "blog/first-post")
            #expect(story.slug == "first-post")
            #expect(story.name == "first-post")
            #expect(story.id == nil)
            #expect(story.rootComponent == "page")
            #expect(story.tags.isEmpty)
            #expect(story.isStartPage == false)
        }

        @Test("reads a numeric uuid, an id written as a string and strips a leading slash from full_slug")
        func lenientIdentity() throws {
            let story = try story(#"{"uuid": 7, "id": "42", "name": "", "full_slug": "/docs/", "content": {}}"#)
            #expect(story.uuid == "7")
            #expect(story.id == 42)
            #expect(story.fullSlug == "docs/")
            #expect(story.isStartPage)
            #expect(story.name == "docs")
        }

        @Test("without a slug or a name, a story is named by the last non-empty segment of its full_slug")
        func lastSegmentFallback() throws {
            for (fullSlug, segment) in [("blog/first-post", "first-post"), ("docs/", "docs"), ("a//b//", "b"), ("solo", "solo"),
                                        ("", ""), ("///", ""), ("caf\u{e9}/men\u{fc}", "men\u{fc}"), ("blog/\u{1F426}", "\u{1F426}")] {
                let story = try story(#"{"uuid": "u", "full_slug": "\#(fullSlug)", "content": {}}"#)
                #expect((story.slug, story.name) == (segment, segment), "\(fullSlug)")
            }
        }

        @Test("ignores an id that is null, fractional or not a number")
        func oddIDs() throws {
            #expect(try story(#"{"uuid": "a", "id": null, "full_slug": "a", "content": {}}"#).id == nil)
            #expect(try story(#"{"uuid": "a", "id": 1.5, "full_slug": "a", "content": {}}"#).id == nil)
            #expect(try story(#"{"uuid": "a", "id": "x", "full_slug": "a", "content": {}}"#).id == nil)
            #expect(try story(#"{"uuid": "a", "id": 1e300, "full_slug": "a", "content": {}}"#).id == nil)
        }

        @Test("names every missing required key at once, or the malformed one", arguments: [
            (#"{"full_slug": "a", "content": {}}"#, StoryDecodingError.missingKeys(["uuid"])),
            (#"{"uuid": null, "full_slug": "a", "content": {}}"#, .missingKeys(["uuid"])),
            (#"{"uuid": "", "full_slug": "a", "content": {}}"#, .malformedKey("uuid", "a non-empty string")),
            (#"{"uuid": true, "full_slug": "a", "content": {}}"#, .malformedKey("uuid", "a non-empty string")),
            (#"{"uuid": 100000000000000000000, "full_slug": "a", "content": {}}"#, .malformedKey("uuid", "a non-empty string")),
            (#"{"uuid": "u", "content": {}}"#, .missingKeys(["full_slug"])),
            (#"{"uuid": "u", "full_slug": 3, "content": {}}"#, .malformedKey("full_slug", "a string")),
            (#"{"uuid": "u", "full_slug": "a"}"#, .missingKeys(["content"])),
            (#"{"uuid": "u", "full_slug": "a", "content": null}"#, .missingKeys(["content"])),
            (#"{"uuid": "u", "full_slug": "a", "content": "text"}"#, .malformedKey("content", "an object (the root block)")),
            (#"{"name": "A", "content": {}}"#, .missingKeys(["uuid", "full_slug"])),
            (#"{"uuid": null, "name": "A"}"#, .missingKeys(["uuid", "full_slug", "content"])),
            (#"{"uuid": 3, "full_slug": 3}"#, .missingKeys(["content"])),
        ])
        func requiredKeys(json: String, expected: StoryDecodingError) throws {
            #expect(try decodingError(json) == expected)
        }

        @Test("describes decoding errors in words that name the key")
        func errorDescriptions() {
            #expect(StoryDecodingError.missingKeys(["uuid"]).description
                == "story is missing the required key 'uuid' (every story has uuid, full_slug and content)")
            #expect(StoryDecodingError.missingKeys(["uuid", "full_slug", "content"]).description
                == "story is missing the required keys 'uuid', 'full_slug' and 'content' (every story has uuid, full_slug and content)")
            #expect(StoryDecodingError.malformedKey("full_slug", "a string").description == "story key 'full_slug' must be a string")
            #expect(StoryDecodingError.notAnObject.description == "a story must be a JSON object")
        }

        @Test("never fails on what editors and exports leave in content, and keeps all of it in raw")
        func lenientContent() throws {
            let story = try story(#"""
                {"uuid": "u", "full_slug": "a", "tag_list": ["x", 3, "y"], "published_at": "",
                 "title__i18n__de": "Titel",
                 "content": {"component": "unknown_widget", "_uid": "1",
                   "_editable": "<!--#storyblok#{\"name\": \"page\"}-->",
                   "count": "12", "gallery": "", "image": "//a.storyblok.com/f/1/old.jpg",
                   "text": {"type": "doc", "content": [{"type": "paragraph", "attrs": {"textAlign": "justify"},
                     "content": [{"type": "sparkle", "text": "x", "marks": [{"type": "glitter", "attrs": null}]}]}]},
                   "teaser__i18n__de": "Hallo", "nothing": null}}
                """#)
            #expect(story.rootComponent == "unknown_widget")
            #expect(story.content["count"]?.numberValue == 12)
            #expect(story.content["gallery"] == .string(""))
            #expect(story.content["nothing"]?.isNull == true)
            #expect(story.raw["title__i18n__de"] == .string("Titel"))
            #expect(story.tags == ["x", "y"])
            #expect(story.string("published_at") == nil)
        }

        @Test("decodes every story in the shared Storyblok fixtures",
              .enabled(if: SharedFixtures.available("storyblok-fixtures"),
                       "../shared/storyblok-fixtures is absent: real Storyblok content is not checked"))
        func sharedFixtures() throws {
            let folder = try #require(SharedFixtures.url("storyblok-fixtures"))
            let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
                .compactMap { $0 as? URL }
                .filter { $0.pathExtension == "json" }
            #expect(files.count >= 20)
            var decoded = 0
            for file in files {
                let value = try JSONValue(parsing: Data(contentsOf: file))
                if value["type"] == .string("doc") {
                    // A bare richtext document (monoblok/richTextObject.json), not a story.
                    #expect(value["content"]?.arrayValue?.isEmpty == false)
                    continue
                }
                var objects: [JSONValue] = value["stories"]?.arrayValue ?? []
                if let single = value["story"] { objects.append(single) }
                objects += value["rels"]?.arrayValue ?? []
                if objects.isEmpty { objects = [value] }
                for case .object(let object) in objects {
                    let story = try Story(json: object)
                    #expect(!story.uuid.isEmpty, "\(file.lastPathComponent)")
                    decoded += 1
                }
            }
            #expect(decoded == 38)
        }
    }
}
