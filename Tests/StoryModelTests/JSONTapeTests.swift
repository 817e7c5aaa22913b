import Foundation
import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("JSON tape")
    struct JSONTapeTests {
        private let document = #"""
            {"name": "Caf\u00e9 \ud83d\ude00", "count": 12, "ratio": -2.5e-1, "flags": [true, false, null],
             "nested": {"empty": {}, "list": [[], [1, [2, {"deep": "x"}]], "tail"]}, "escaped": "a\"b\\c\nd", "last": ""}
            """#

        @Test("a parsed tape reads back as the tree, and a tree encoded as a tape reads back as itself")
        func roundTrip() throws {
            let tape = try JSONTape(parsing: Array(document.utf8))
            let tree = tape.value()
            #expect(tree["name"] == .string("Café 😀"))
            #expect(tree["ratio"] == .number(-0.25))
            #expect(tree["escaped"] == .string("a\"b\\c\nd"))
            #expect(tree["nested"]?["list"]?.arrayValue?.count == 3)
            #expect(tree.objectValue?.keys == ["name", "count", "ratio", "flags", "nested", "escaped", "last"])
            #expect(JSONTape(encoding: tree).value() == tree)
        }

        @Test("a key or short value that repeats is kept once among the tape's strings, and each reads back as written")
        func repeatedStringsShareBytes() throws {
            let marks = (0..<40).map { #"{"type": "text", "text": "word \#($0)", "marks": [{"type": "bold"}], "long": "\#(String(repeating: "x", count: 33))"}"# }
            let document = #"{"type": "doc", "content": [\#(marks.joined(separator: ", "))], "caf\u00e9": "typ", "typé": "type"}"#
            let tape = try JSONTape(parsing: Array(document.utf8))
            let tree = try JSONValue(parsing: document)
            #expect(tape.value() == tree)
            #expect(tape.value()["content"]?.arrayValue?[39]["text"] == .string("word 39"))
            #expect(tape.value()["typé"] == .string("type"))
            #expect(tape.value()["content"]?.arrayValue?[5]["marks"]?.arrayValue?[0]["type"] == .string("bold"))
            #expect(tape.value()["content"]?.arrayValue?[5]["long"]?.stringValue?.count == 33)
            // Each key and "text", "bold" once; each "word n" and each 33-byte value (longer
            // than a shared string may be) every time.
            let unique = ["type", "doc", "content", "text", "marks", "bold", "long", "café", "typ", "typé"].reduce(0) { $0 + $1.utf8.count }
            let words = (0..<40).reduce(0) { $0 + "word \($1)".utf8.count }
            #expect(tape.strings.count == unique + words + 40 * 33)
            #expect(JSONTape(encoding: tree).value() == tree)
        }

        @Test("two values on a tape are equal exactly when their trees are, and numbers are read from strings as trees read them")
        func valuesCompareAsTrees() throws {
            let values = [
                "null", "true", "false", "1", "1.0", "2", #""3""#, #"" 3""#, #""x""#, #""caf\u00e9""#, #""cafe\u0301""#, "[]", "[1]", "[1, 2]",
                "[2, 1]", "{}", #"{"a": 1}"#, #"{"a": 1, "b": [true]}"#, #"{"b": [true], "a": 1}"#, #"{"a": 1, "b": [false]}"#,
                #"{"caf\u00e9": {"x": null}}"#, #"{"cafe\u0301": {"x": null}}"#,
            ]
            let tape = try JSONTape(parsing: Array("[\(values.joined(separator: ", "))]".utf8))
            tape.withReader { reader in
                var indices: [Int] = []
                reader.forEachElement(ofArray: 0) { _, element in indices.append(element) }
                for left in indices {
                    #expect(reader.numberValue(at: left) == tape.value(at: left).numberValue)
                    for right in indices {
                        #expect(reader.valuesEqual(left, right) == (tape.value(at: left) == tape.value(at: right)),
                                "\(tape.value(at: left)) against \(tape.value(at: right))")
                    }
                }
            }
        }

        @Test("the reader skips whole values, counts entries and finds keys in place")
        func readsInPlace() throws {
            let tape = try JSONTape(parsing: Array(document.utf8))
            tape.withReader { reader in
                #expect(reader.kind(at: 0) == .object)
                #expect(reader.count(at: 0) == 7)
                var keys: [String] = []
                reader.forEachEntry(ofObject: 0) { key, _ in
                    keys.append(reader.string(at: key)!)
                    return true
                }
                #expect(keys == ["name", "count", "ratio", "flags", "nested", "escaped", "last"])
                let nested = reader.value(forKey: "nested", inObject: 0)!
                let list = reader.value(forKey: "list", inObject: nested)!
                var kinds: [JSONTape.Kind] = []
                reader.forEachElement(ofArray: list) { _, element in kinds.append(reader.kind(at: element)) }
                #expect(kinds == [.array, .array, .string])
                // Skipping the nested object lands on the next key.
                #expect(reader.string(at: reader.next(after: nested)) == "escaped")
                #expect(reader.number(at: reader.value(forKey: "count", inObject: 0)!) == 12)
                #expect(reader.isString(at: reader.value(forKey: "last", inObject: 0)!, equalTo: ""))
                #expect(reader.value(forKey: "missing", inObject: 0) == nil)
                #expect(reader.value(forKey: "name" as String, inObject: list) == nil, "an array has no keys")
            }
        }

        @Test("a quote, backslash, control character or non-ASCII letter is found at any place in strings of any length")
        func stringsScannedByWords() throws {
            for length in 0..<20 {
                for place in 0...length {
                    for special in ["\"", "\\", "\n", "é", "😀"] {
                        var text = String(repeating: "a", count: length)
                        text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
                        #expect(try JSONValue(parsing: JSONValue.string(text).jsonText()) == .string(text), "\(text.debugDescription)")
                    }
                    let raw = "\"" + String(repeating: "b", count: place) + "\u{1}" + String(repeating: "b", count: length - place) + "\""
                    #expect(throws: JSONParseError(line: 1, column: place + 2, message: "control character 0x1 in string; escape it")) {
                        try JSONValue(parsing: raw)
                    }
                }
            }
        }

        @Test("invalid UTF-8 in a string reads as U+FFFD, as a String made from the bytes does")
        func invalidUTF8() throws {
            let bytes: [UInt8] = Array(#"{"t": "a"#.utf8) + [0xFF, 0xC3] + Array(#"b"}"#.utf8)
            let tape = try JSONTape(parsing: bytes)
            #expect(tape.value()["t"] == .string("a\u{FFFD}\u{FFFD}b"))
            tape.withReader { reader in
                #expect(Array(reader.bytes(at: reader.value(forKey: "t", inObject: 0)!)) == Array("a\u{FFFD}\u{FFFD}b".utf8))
            }
        }

        @Test("a story read from a tape has the fields, content and errors of one read from the tree")
        func stories() throws {
            let json = #"{"uuid": "u-1", "id": 7, "name": "", "full_slug": "/blog/post", "tag_list": ["a"], "content": {"component": "page", "title": "T"}}"#
            let tape = try JSONTape(parsing: Array(json.utf8))
            let fromTape = try Story(tape: tape)
            let fromTree = try Story(json: try #require(try JSONValue(parsing: json).objectValue))
            #expect(fromTape == fromTree)
            #expect((fromTape.uuid, fromTape.id, fromTape.name, fromTape.slug, fromTape.fullSlug) == ("u-1", 7, "post", "post", "blog/post"))
            #expect(fromTape.rootComponent == "page")
            #expect(fromTape.contentField("title") == .string("T"))
            #expect(fromTape.tags == ["a"])
            #expect(fromTape.head.keys == ["uuid", "id", "name", "full_slug", "tag_list"])
            for broken in [#"{"full_slug": "a"}"#, #"{"uuid": "u", "full_slug": null, "content": {}}"#, #"{"uuid": "u", "full_slug": "a", "content": []}"#,
                           #"{"uuid": "", "full_slug": "a", "content": {}}"#, "[1]"] {
                let treeError = #expect(throws: StoryDecodingError.self) {
                    guard let object = try JSONValue(parsing: broken).objectValue else { throw StoryDecodingError.notAnObject }
                    _ = try Story(json: object)
                }
                let tapeError = #expect(throws: StoryDecodingError.self) { _ = try Story(tape: try JSONTape(parsing: Array(broken.utf8))) }
                #expect(tapeError == treeError, "\(broken)")
            }
        }
    }
}
