import Testing
import StoryModel

extension StoryModelTests {
    @Suite("Content classification")
    struct ContentKindTests {
        private let storyUUID = "3a526768-1d22-447e-9ddd-f4158a035edd"
        private let otherUUID = "0b87cb6f-b089-4dd2-a1e3-87f9427d0700"

        /// The kind of the object `json`, classified as a tree and, by the same rules, in place
        /// on its tape: the two must agree.
        private func kind(_ json: String) throws -> ContentKind {
            let tree = ContentKind(try #require(try JSONValue(parsing: json).objectValue))
            let tape = try JSONTape(parsing: Array(json.utf8))
            #expect(tape.withReader { ContentKind(tape, $0, object: 0) } == tree, "on the tape: \(json)")
            return tree
        }

        private func field(_ key: String, _ json: String) throws -> FieldKind {
            FieldKind(key: key, value: try JSONValue(parsing: json))
        }

        @Test("a string component makes a block, whatever else the object holds")
        func blocks() throws {
            #expect(try kind(#"{"_uid": "1", "component": "teaser"}"#) == .block)
            #expect(try kind(#"""
                {"component": "card", "fieldtype": "multilink", "type": "doc", "linktype": "story", "cached_url": "a",
                 "filename": "/a.png", "uuid": "\#(storyUUID)", "full_slug": "a", "content": {"component": "page"}}
                """#) == .block)
            #expect(try kind(#"{"component": 3, "title": "x"}"#) == .plain)
        }

        @Test("a multilink, asset or table fieldtype names the kind, ahead of the object's shape")
        func fieldtypes() throws {
            #expect(try kind(#"{"fieldtype": "multilink", "linktype": "url", "url": "/a"}"#) == .multilink)
            #expect(try kind(#"{"fieldtype": "asset", "filename": "/a.png"}"#) == .asset)
            #expect(try kind(#"{"fieldtype": "asset", "filename": null, "linktype": "url", "cached_url": "/a"}"#) == .asset)
            #expect(try kind(#"{"fieldtype": "table", "thead": [], "tbody": []}"#) == .table)
            #expect(try kind(#"{"fieldtype": "table", "type": "doc", "tbody": []}"#) == .table)
        }

        @Test("type doc makes a richtext document, even with a link's keys; other node types do not")
        func richtext() throws {
            #expect(try kind(#"{"type": "doc", "content": []}"#) == .richtext)
            #expect(try kind(#"{"type": "doc", "linktype": "story", "cached_url": "about", "content": []}"#) == .richtext)
            #expect(try kind(#"{"type": "paragraph", "content": []}"#) == .plain)
            #expect(try kind(#"{"type": ["doc"]}"#) == .plain)
        }

        @Test("linktype with cached_url makes a multilink under no fieldtype or any unknown one; either alone does not")
        func multilinkShape() throws {
            #expect(try kind(#"{"linktype": "story", "id": "\#(storyUUID)", "cached_url": "about"}"#) == .multilink)
            #expect(try kind(#"{"fieldtype": "custom", "linktype": "story", "cached_url": "about"}"#) == .multilink)
            #expect(try kind(#"{"fieldtype": 7, "linktype": null, "cached_url": null}"#) == .multilink)
            #expect(try kind(#"{"linktype": "story", "id": "\#(storyUUID)"}"#) == .plain)
            #expect(try kind(#"{"cached_url": "about"}"#) == .plain)
        }

        @Test("a string filename makes an asset without a fieldtype or under an unknown one; a null one does not")
        func assetShape() throws {
            #expect(try kind(#"{"filename": "/assets/a.png", "alt": "[x](/about)"}"#) == .asset)
            #expect(try kind(#"{"fieldtype": "custom", "filename": ""}"#) == .asset)
            #expect(try kind(#"{"filename": null, "alt": ""}"#) == .plain)
        }

        @Test("uuid, full_slug and content that read as a story make an embedded story; incomplete ones are plain")
        func embeddedStories() throws {
            let embedded = try kind(#"""
                {"name": "Post", "uuid": "\#(storyUUID)", "full_slug": "blog/post", "content": {"component": "post"}}
                """#)
            guard case .story(let story) = embedded else {
                Issue.record("not an embedded story: \(embedded)")
                return
            }
            #expect(story.uuid == storyUUID)
            #expect(story.name == "Post")
            #expect(try kind(#"{"uuid": "\#(storyUUID)", "full_slug": "blog/post", "content": "text"}"#) == .plain)
            #expect(try kind(#"{"uuid": "\#(storyUUID)", "content": {"component": "post"}}"#) == .plain)
            #expect(try kind(#"{"uuid": "", "full_slug": "a", "content": {}}"#) == .plain)
            #expect(try kind(#"""
                {"uuid": "\#(storyUUID)", "full_slug": "a", "content": {}, "filename": "/a.png"}
                """#) == .asset)
        }

        @Test("anything else is a plain object")
        func plainObjects() throws {
            #expect(try kind("{}") == .plain)
            #expect(try kind(#"{"plugin": "colour-picker", "selected": "\#(storyUUID)"}"#) == .plain)
            #expect(try kind(#"{"a_very_long_field_name_that_no_classifying_key_has_the_length_of_at_all": 1}"#) == .plain)
        }

        @Test("a block's _uid, _editable, component and uuid are bookkeeping, even when they hold UUIDs")
        func bookkeeping() throws {
            for key in ["_uid", "_editable", "component", "uuid"] {
                #expect(try field(key, #""\#(storyUUID)""#) == .bookkeeping, "\(key)")
                #expect(try field(key, #"["\#(storyUUID)"]"#) == .bookkeeping, "\(key)")
            }
            #expect(try field("uid", #""\#(storyUUID)""#) == .relation(storyUUID))
        }

        @Test("a UUID-shaped string is one relation; other strings are values")
        func singleRelations() throws {
            #expect(try field("author", #""\#(storyUUID)""#) == .relation(storyUUID))
            #expect(try field("author", #""\#(storyUUID.uppercased())""#) == .relation(storyUUID.uppercased()))
            #expect(try field("colour", #""red""#) == .value)
            #expect(try field("author", #""i-\#(storyUUID)""#) == .value)
        }

        @Test("an array is relations only when it is non-empty and every element is a UUID string")
        func relationLists() throws {
            #expect(try field("related", #"["\#(storyUUID)", "\#(otherUUID)"]"#)
                == .relations([.string(storyUUID), .string(otherUUID)]))
            #expect(try field("categories", #"["option-1", "\#(storyUUID)"]"#) == .value)
            #expect(try field("categories", #"["\#(storyUUID)", 3]"#) == .value)
            #expect(try field("categories", #"["\#(storyUUID)", {"component": "x"}]"#) == .value)
            #expect(try field("categories", "[]") == .value)
        }

        @Test("objects, numbers, booleans and null are values, objects to classify further")
        func otherValues() throws {
            #expect(try field("link", #"{"fieldtype": "multilink", "linktype": "story", "id": "\#(storyUUID)"}"#) == .value)
            #expect(try field("count", "3") == .value)
            #expect(try field("visible", "true") == .value)
            #expect(try field("empty", "null") == .value)
        }
    }
}
