import Testing
import StoryModel

extension StoryModelTests {
    @Suite("Story order")
    struct StoryOrderTests {
        /// A story at `slug` with the given top-level fields (JSON text) and root block fields.
        private static func story(_ slug: String, _ fields: String = "", content: String = "", uuid: String? = nil) throws -> Story {
            let extra = fields.isEmpty ? "" : ", " + fields
            let block = content.isEmpty ? "" : ", " + content
            let json = #"{"uuid": "\#(uuid ?? "u-" + slug)", "full_slug": "\#(slug)", "content": {"component": "page"\#(block)}\#(extra)}"#
            return try Story(json: try #require(try JSONValue(parsing: json).objectValue))
        }

        /// The full slugs of `stories` sorted by `order`.
        private static func slugs(_ order: String, _ stories: [Story]) throws -> [String] {
            try StoryOrder(parsing: order).sorted(stories).map(\.fullSlug)
        }

        private static func parsingError(_ text: String) -> String? {
            do {
                _ = try StoryOrder(parsing: text)
                return nil
            } catch {
                return error.message
            }
        }

        // MARK: Parsing

        @Test("reads one or more keys with optional directions, in any case and spacing, into canonical text")
        func parsing() throws {
            #expect(try StoryOrder(parsing: "first_published_at desc").description == "first_published_at desc")
            #expect(try StoryOrder(parsing: "content.priority desc, name").description == "content.priority desc, name")
            #expect(try StoryOrder(parsing: "  Name   ASC ,\tslug DESC  ").description == "name, slug desc")
            #expect(try StoryOrder(parsing: "CONTENT.Priority").description == "content.Priority")
            #expect(try StoryOrder(parsing: "name, slug, full_slug, position, created_at, published_at, first_published_at").description
                == "name, slug, full_slug, position, created_at, published_at, first_published_at")
            #expect(try StoryOrder(parsing: "name asc") == StoryOrder(parsing: "NAME"))
            #expect(try StoryOrder(parsing: "name desc") != StoryOrder(parsing: "name"))
            #expect(StoryOrder.standard.description == "position, full_slug")
            #expect(try StoryOrder(parsing: StoryOrder.standard.description) == StoryOrder.standard)
        }

        @Test("an unknown key is named along with every valid one")
        func unknownKey() {
            #expect(Self.parsingError("date") == "unknown sort key 'date'; use name, slug, full_slug, position, created_at, published_at, first_published_at or content.<field>")
            #expect(Self.parsingError("name, published") == "unknown sort key 'published'; use name, slug, full_slug, position, created_at, published_at, first_published_at or content.<field>")
            #expect(Self.parsingError("content.")?.hasPrefix("unknown sort key 'content.';") == true)
            #expect(Self.parsingError("contents.priority")?.hasPrefix("unknown sort key 'contents.priority';") == true)
        }

        @Test("an empty order, an empty key, a third word or an unknown direction is an error")
        func malformed() {
            #expect(Self.parsingError("") == "the sort order is empty")
            #expect(Self.parsingError("   ") == "the sort order is empty")
            #expect(Self.parsingError("name,,slug") == "empty sort key in 'name,,slug': remove the extra comma")
            #expect(Self.parsingError("name,") == "empty sort key in 'name,': remove the extra comma")
            #expect(Self.parsingError(", name") == "empty sort key in ', name': remove the extra comma")
            #expect(Self.parsingError("name desc slug") == "unexpected 'slug' after 'name desc': a sort key may be followed only by asc or desc")
            #expect(Self.parsingError("name Down") == "unknown sort direction 'Down' after 'name'; use asc or desc")
            #expect(Self.parsingError("name descending") == "unknown sort direction 'descending' after 'name'; use asc or desc")
            #expect(StoryOrderError(message: "x").description == "x")
        }

        // MARK: Sorting by each kind of key

        @Test("name, slug and full_slug sort by the story's properties")
        func properties() throws {
            let stories = [
                try Self.story("blog/b", #""name": "Zebra", "slug": "b""#),
                try Self.story("a/c", #""name": "Apple", "slug": "c""#),
                try Self.story("blog/a", #""name": "Mango", "slug": "a""#),
            ]
            #expect(try Self.slugs("name", stories) == ["a/c", "blog/a", "blog/b"])
            #expect(try Self.slugs("slug", stories) == ["blog/a", "blog/b", "a/c"])
            #expect(try Self.slugs("full_slug", stories) == ["a/c", "blog/a", "blog/b"])
            #expect(try Self.slugs("full_slug desc", stories) == ["blog/b", "blog/a", "a/c"])
        }

        @Test("position reads a number or a numeric string, numerically")
        func position() throws {
            let stories = [
                try Self.story("a", #""position": 10"#),
                try Self.story("b", #""position": "9""#),
                try Self.story("c", #""position": -20"#),
                try Self.story("d", #""position": "1.5""#),
            ]
            #expect(try Self.slugs("position", stories) == ["c", "d", "b", "a"])
            #expect(try Self.slugs("position desc", stories) == ["a", "b", "d", "c"])
        }

        @Test("the standard order is position, then full_slug")
        func standard() throws {
            let stories = [
                try Self.story("b", #""position": 1"#),
                try Self.story("a", #""position": 1"#),
                try Self.story("c", #""position": 0"#),
                try Self.story("d"),
            ]
            #expect(StoryOrder.standard.sorted(stories).map(\.fullSlug) == ["c", "a", "b", "d"])
        }

        @Test("dates compare by time whether written with a T or a space")
        func dates() throws {
            let stories = [
                try Self.story("iso-late", #""published_at": "2024-03-30T09:15:00.000Z""#),
                try Self.story("space", #""published_at": "2024-03-30 08:00""#),
                try Self.story("iso-early", #""published_at": "2018-04-13T17:38:33.638Z""#),
                try Self.story("space-late", #""published_at": "2024-03-30 10:00""#),
            ]
            #expect(try Self.slugs("published_at", stories) == ["iso-early", "space", "iso-late", "space-late"])
            #expect(try Self.slugs("published_at desc", stories) == ["space-late", "iso-late", "space", "iso-early"])
        }

        @Test("created_at and first_published_at read their own fields")
        func otherDates() throws {
            let stories = [
                try Self.story("a", #""created_at": "2020-01-02", "first_published_at": "2021-01-01T00:00:00.000Z""#),
                try Self.story("b", #""created_at": "2020-01-01", "first_published_at": "2022-01-01T00:00:00.000Z""#),
            ]
            #expect(try Self.slugs("created_at", stories) == ["b", "a"])
            #expect(try Self.slugs("first_published_at", stories) == ["a", "b"])
        }

        @Test("content fields compare numbers numerically, text by Unicode scalars and booleans false before true")
        func contentFields() throws {
            let numbers = [
                try Self.story("ten", content: #""priority": 10"#),
                try Self.story("nine", content: #""priority": "9""#),
                try Self.story("two-and-a-half", content: #""priority": 2.5"#),
            ]
            #expect(try Self.slugs("content.priority", numbers) == ["two-and-a-half", "nine", "ten"])

            let text = [
                try Self.story("lower", content: #""title": "apple""#),
                try Self.story("accent", content: #""title": "Élan""#),
                try Self.story("upper", content: #""title": "Zebra""#),
            ]
            #expect(try Self.slugs("content.title", text) == ["upper", "lower", "accent"])

            let flags = [try Self.story("yes", content: #""featured": true"#), try Self.story("no", content: #""featured": false"#)]
            #expect(try Self.slugs("content.featured", flags) == ["no", "yes"])
            #expect(try Self.slugs("content.featured desc", flags) == ["yes", "no"])
        }

        @Test("strings that only resemble numbers sort as text, after the numbers")
        func numericAndText() throws {
            let stories = [
                try Self.story("word", content: #""rank": "10a""#),
                try Self.story("exponent", content: #""rank": "1e3""#),
                try Self.story("nan", content: #""rank": "nan""#),
                try Self.story("ten", content: #""rank": "10""#),
                try Self.story("nine", content: #""rank": 9"#),
            ]
            #expect(try Self.slugs("content.rank", stories) == ["nine", "ten", "word", "exponent", "nan"])
        }

        @Test("several keys: later keys order what earlier keys leave equal")
        func multipleKeys() throws {
            let stories = [
                try Self.story("a", content: #""group": "x", "priority": 1"#),
                try Self.story("b", content: #""group": "y", "priority": 3"#),
                try Self.story("c", content: #""group": "x", "priority": 2"#),
                try Self.story("d", content: #""group": "y", "priority": 1"#),
            ]
            #expect(try Self.slugs("content.group, content.priority desc", stories) == ["c", "a", "b", "d"])
            #expect(try Self.slugs("content.group desc, content.priority", stories) == ["d", "b", "a", "c"])
        }

        @Test("ties on every key are broken by full_slug, then uuid, whatever the input order or direction")
        func ties() throws {
            let stories = [
                try Self.story("c", #""name": "Same""#),
                try Self.story("a", #""name": "Same""#),
                try Self.story("b", #""name": "Same""#, uuid: "2"),
                try Self.story("b", #""name": "Same""#, uuid: "1"),
            ]
            for order in ["name", "name desc"] {
                let sorted = try StoryOrder(parsing: order).sorted(stories)
                #expect(sorted.map(\.fullSlug) == ["a", "b", "b", "c"])
                #expect(sorted.map(\.uuid) == ["u-a", "1", "2", "u-c"])
                #expect(try StoryOrder(parsing: order).sorted(stories.reversed()) == sorted)
            }
        }

        @Test("a missing value (absent, null or empty) sorts last in either direction")
        func missingLast() throws {
            let stories = [
                try Self.story("absent"),
                try Self.story("late", #""published_at": "2024-01-01 00:00""#, content: #""rank": 2"#),
                try Self.story("null", #""published_at": null"#, content: #""rank": null"#),
                try Self.story("early", #""published_at": "2020-01-01 00:00""#, content: #""rank": 1"#),
                try Self.story("empty", #""published_at": """#, content: #""rank": """#),
            ]
            for key in ["published_at", "content.rank"] {
                #expect(try Self.slugs(key, stories) == ["early", "late", "absent", "empty", "null"])
                #expect(try Self.slugs(key + " desc", stories) == ["late", "early", "absent", "empty", "null"])
            }
        }

        @Test("areInIncreasingOrder agrees with sorted")
        func comparator() throws {
            let order = try StoryOrder(parsing: "content.rank desc")
            let a = try Self.story("a", content: #""rank": 1"#)
            let b = try Self.story("b", content: #""rank": 2"#)
            #expect(order.areInIncreasingOrder(b, a))
            #expect(!order.areInIncreasingOrder(a, b))
            #expect(!order.areInIncreasingOrder(a, a))
        }

        @Test("10,000 stories sort the same from any input order")
        func manyStories() throws {
            let stories = try (0..<10_000).map { index in
                try Self.story("post-\(index)", #""published_at": "2024-01-\#(10 + index % 20) 08:00""#, content: #""rank": \#(index % 7)"#)
            }
            let order = try StoryOrder(parsing: "content.rank desc, published_at")
            let sorted = order.sorted(stories)
            #expect(order.sorted(stories.reversed()) == sorted)
            #expect(zip(sorted, sorted.dropFirst()).allSatisfy { order.areInIncreasingOrder($0, $1) })
        }
    }
}
