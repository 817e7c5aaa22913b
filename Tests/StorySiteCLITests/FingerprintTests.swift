import SiteOutput
import StoryModel
import Testing
@testable import StorySiteCLI

extension StorySiteCLITests {
    @Suite("Page fingerprints")
    struct FingerprintTests {
        static func hex(_ value: JSONValue) -> String {
            var fingerprint = Fingerprint()
            fingerprint.combine(value)
            return fingerprint.hex
        }

        @Test("a JSON tree's fingerprint tells kinds, order and values apart")
        func jsonKinds() throws {
            let values: [JSONValue] = [
                .null, .bool(true), .bool(false), .number(1), .string("1"), .array([]), .object(JSONObject()),
                .array([.string("a"), .string("b")]), .array([.string("b"), .string("a")]), .array([.string("ab")]),
                try JSONValue(parsing: #"{"a": 1, "b": 2}"#), try JSONValue(parsing: #"{"b": 2, "a": 1}"#),
            ]
            #expect(Set(values.map(Self.hex)).count == values.count)
            #expect(Self.hex(try JSONValue(parsing: #"{"a": [1, "x"]}"#)) == Self.hex(try JSONValue(parsing: #"{"a":[1,"x"]}"#)))
        }
    }
}
