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

        @Test("numbers too large for a double are written as valid JSON that reads back as the same value", arguments: [
            "1e400", "-1e400", "123456789012345678901234567890e300", "1.7976931348623157e308", "5e-324", "-0.000001", "12345678901234567890",
        ])
        func extremeNumbers(literal: String) throws {
            let value = try JSONValue(parsing: "[\(literal)]")
            let text = value.jsonText()
            #expect(!text.contains("inf") && !text.contains("nan"), "\(text)")
            #expect(try JSONValue(parsing: text) == value, "\(literal) → \(text)")
        }

        @Test("appendInteger writes a whole number's decimal digits as the text of its number does", arguments: [
            Int64(0), 7, -7, 10, 1_796_450_145_799_078_981, Int64.max, Int64.min,
        ])
        func appendInteger(value: Int64) {
            var bytes = Array("x".utf8)
            JSONValue.appendInteger(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "x\(value)")
        }

        @Test("NaN, which no JSON text reads as, is written as null")
        func notANumber() {
            #expect(JSONValue.array([.number(.nan)]).jsonText() == "[null]")
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
