import Foundation
import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("JSON parser")
    struct JSONParserTests {
        @Test("parses every kind of value and keeps object keys in document order")
        func values() throws {
            let value = try JSONValue(parsing: #"{"b": [1, -2.5e2, 0.125, true, false, null], "a": {"z": "x", "y": {}}, "c": []}"#)
            #expect(value.objectValue?.keys == ["b", "a", "c"])
            #expect(value["b"] == .array([.number(1), .number(-250), .number(0.125), .bool(true), .bool(false), .null]))
            #expect(value["a"]?.objectValue?.keys == ["z", "y"])
            #expect(value["a"]?["y"] == .object(JSONObject()))
            #expect(value["c"] == .array([]))
        }

        @Test("reads numbers: integers, fractions, exponents and integers too long for 64 bits")
        func numbers() throws {
            #expect(try JSONValue(parsing: "0") == .number(0))
            #expect(try JSONValue(parsing: "-17") == .number(-17))
            #expect(try JSONValue(parsing: "1E3") == .number(1000))
            #expect(try JSONValue(parsing: "2.5e-1") == .number(0.25))
            #expect(try JSONValue(parsing: "123456789012345678901234") == .number(Double("123456789012345678901234")!))
            #expect(try JSONValue(parsing: "-1234567890123456789") == .number(Double("-1234567890123456789")!))
        }

        @Test("decodes every escape sequence")
        func escapes() throws {
            let value = try JSONValue(parsing: #""q\"b\\s\/b\bf\fn\nr\rt\t""#)
            #expect(value == .string("q\"b\\s/b\u{8}f\u{C}n\nr\rt\t"))
            #expect(try JSONValue(parsing: #""caf\u00e9 \u20AC""#) == .string("café €"))
            #expect(try JSONValue(parsing: #""\u0000""#) == .string("\u{0}"))
        }

        @Test("joins surrogate pairs and replaces lone surrogates with U+FFFD instead of failing")
        func surrogates() throws {
            #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == .string("😀"))
            #expect(try JSONValue(parsing: #""\uD83D\uDE00!""#) == .string("😀!"))
            #expect(try JSONValue(parsing: #""a\ud83db""#) == .string("a\u{FFFD}b"))
            #expect(try JSONValue(parsing: #""\ude00""#) == .string("\u{FFFD}"))
            #expect(try JSONValue(parsing: #""\ud83d\u0041""#) == .string("\u{FFFD}A"))
            #expect(try JSONValue(parsing: #""\ud83d""#) == .string("\u{FFFD}"))
        }

        @Test("passes raw UTF-8 through and tolerates a byte order mark")
        func utf8() throws {
            #expect(try JSONValue(parsing: #"["Grüße, 世界 🌍"]"#) == .array([.string("Grüße, 世界 🌍")]))
            let withMark = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"a": 1}"#.utf8)
            #expect(try JSONValue(parsing: withMark)["a"] == .number(1))
        }

        @Test("a repeated key replaces the earlier value in place, in small and in large objects")
        func repeatedKeys() throws {
            let small = try JSONValue(parsing: #"{"a": 1, "b": 2, "a": 3}"#)
            #expect(small.objectValue?.keys == ["a", "b"])
            #expect(small["a"] == .number(3))

            let keys = (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
            let large = try JSONValue(parsing: "{\(keys), \"k3\": \"again\", \"k90\": \"again\"}")
            #expect(large.objectValue?.count == 100)
            #expect(large["k3"] == .string("again"))
            #expect(large["k90"] == .string("again"))
            #expect(large.objectValue?.keys.first == "k0")

            // Beyond ASCII, keys compare as strings do: "é" composed and decomposed are one key.
            let accented = (0..<100).map { "\"ké\($0)\": \($0)" }.joined(separator: ", ")
            let distinct = try JSONValue(parsing: "{\(accented)}")
            #expect(distinct.objectValue?.count == 100)
            let equivalent = try JSONValue(parsing: "{\(accented), \"ke\u{301}7\": \"again\"}")
            #expect(equivalent.objectValue?.count == 100)
            #expect(equivalent["k\u{E9}7"] == .string("again"))
        }

        @Test("reports malformed JSON with the exact line and column", arguments: [
            (#"{"a": 1,}"#, 1, 9, "expected a string key in object"),
            ("{\n  \"a\": tru\n}", 2, 8, "unexpected character 't', expected a value"),
            ("[1 2]", 1, 4, "expected ',' or ']' after array element"),
            (#"{"a" 1}"#, 1, 6, #"expected ':' after object key "a""#),
            (#"{"a": 1 "b": 2}"#, 1, 9, "expected ',' or '}' after object value"),
            (#"  "abc"#, 1, 3, "unexpected end of file, string is never closed"),
            (#"{"a": "x\qy"}"#, 1, 9, #"invalid escape sequence '\q'"#),
            ("\"a\tb\"", 1, 3, "control character 0x9 in string; escape it"),
            (#"{"é": ?}"#, 1, 7, "unexpected character '?', expected a value"),
            ("01", 1, 2, "leading zeros are not allowed in numbers"),
            ("1.", 1, 3, "expected a digit after the decimal point"),
            ("-", 1, 2, "expected a digit in number"),
            ("1e+", 1, 4, "expected a digit in the exponent"),
            (#""\u12G4""#, 1, 6, "invalid hex digit 'G' in \\u escape"),
            ("", 1, 1, "unexpected end of file, expected a value"),
            ("{} x", 1, 4, "unexpected content after the JSON value"),
            ("[1,\n", 2, 1, "unexpected end of file, expected a value"),
            ("{\"a\": [1}", 1, 9, "expected ',' or ']' after array element"),
            ("{\r\n\"a\":x}", 2, 5, "unexpected character 'x', expected a value"),
            ("\u{FEFF}{,}", 1, 2, "expected a string key in object"),
        ])
        func errors(input: String, line: Int, column: Int, message: String) {
            #expect(throws: JSONParseError(line: line, column: column, message: message)) {
                try JSONValue(parsing: input)
            }
        }

        @Test("finds the line where the value at a path starts, or the deepest value the path reaches")
        func positions() {
            let document = Array("""
                \u{FEFF}{"story": {
                  "name": "A", "skipped": {"deep": [1, {"body": "x"}], "text": "a\\"}\\n"},
                  "content": {"body": [
                    {"link": "first"},
                    {"title": "t",
                     "link":
                       {"id": "u"}}
                  ]}
                }}
                """.utf8)
            func position(_ path: String) -> (line: Int, matched: Int)? {
                let components = JSONPathComponent.components(ofFieldPath: path)
                return JSONValue.position(of: [.key("story"), .key("content")] + components, in: document)
            }
            #expect(JSONPathComponent.components(ofFieldPath: "body[2].columns[0][1].link")
                == [.key("body"), .index(2), .key("columns"), .index(0), .index(1), .key("link")])
            #expect(position("body[1].link").map { [$0.line, $0.matched] } == [7, 5])
            #expect(position("body[0]").map { [$0.line, $0.matched] } == [4, 4])
            #expect(position("body[1].link.id").map { [$0.line, $0.matched] } == [7, 6])
            #expect(position("body[1].link__i18n__de").map { [$0.line, $0.matched] } == [5, 4], "a missing key stops at its object")
            #expect(position("body[5].link").map { [$0.line, $0.matched] } == [3, 3], "an index past the end stops at the array")
            #expect(position("body[0].link[0]").map { [$0.line, $0.matched] } == [4, 5], "a string has no elements")
            #expect(JSONValue.position(of: [.key("nope")], in: document).map { [$0.line, $0.matched] } == [1, 0])
            #expect(JSONValue.position(of: [.key("b")], in: Array("{\"a\": [1, }".utf8)) == nil, "malformed JSON before the value has no position")
        }

        @Test("describes an error as line:column: message")
        func errorDescription() {
            let error = JSONParseError(line: 3, column: 14, message: "expected ',' or '}' after object value")
            #expect(error.description == "3:14: expected ',' or '}' after object value")
        }

        @Test("refuses nesting deeper than 512 levels instead of exhausting the stack")
        func depth() throws {
            #expect(try JSONValue(parsing: String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).arrayValue != nil)
            let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
            #expect(throws: JSONParseError(line: 1, column: 513, message: "nesting deeper than 512 levels")) {
                try JSONValue(parsing: tooDeep)
            }
        }
    }
}
