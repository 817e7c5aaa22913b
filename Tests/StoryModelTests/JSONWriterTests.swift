import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("JSON writer")
    struct JSONWriterTests {
        static let document = #"{"b":[1,2.5,-3e+20,true,null],"a":{"text":"line\nbreak \"quoted\" \\ tab\t\u0001 ü 😀"},"empty":[],"none":{}}"#

        @Test("compact text keeps key order and reads back as the same value")
        func compactRoundTrip() throws {
            let value = try JSONValue(parsing: Self.document)
            let text = value.jsonText()
            #expect(text.hasPrefix(#"{"b":[1,2.5,-3e+20,true,null],"a":{"text":"line\nbreak \"quoted\" \\ tab\t\u0001 ü 😀"}"#))
            #expect(try JSONValue(parsing: text) == value)
        }

        @Test("pretty text indents by two spaces and reads back as the same value")
        func prettyRoundTrip() throws {
            let value = try JSONValue(parsing: #"{"story": {"name": "Home", "tags": ["a"], "empty": []}}"#)
            let text = value.jsonText(pretty: true)
            #expect(text == """
                {
                  "story": {
                    "name": "Home",
                    "tags": [
                      "a"
                    ],
                    "empty": []
                  }
                }
                """)
            #expect(try JSONValue(parsing: text) == value)
        }
    }
}
