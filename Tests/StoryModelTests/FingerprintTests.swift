import Foundation
import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Fingerprints")
    struct FingerprintTests {
        private static func hex(_ build: (inout Fingerprint) -> Void) -> String {
            var fingerprint = Fingerprint()
            build(&fingerprint)
            return fingerprint.hex
        }

        @Test("the hash is pinned: the same on every run and machine, so caches written elsewhere stay valid")
        func knownAnswers() {
            #expect(Fingerprint.contents(Data()) == "b992b056e7d8a844")
            #expect(Fingerprint.contents(Data("storysite".utf8)) == "18257191f092116b")
            #expect(Self.hex { $0.combine("storysite"); $0.combine(Int64(42)) } == "da90ec3222684bf8")
            #expect(Fingerprint.contents(Data(repeating: 7, count: 100)) == "e0aa5ec5c1bf4a2e")
        }

        @Test("a run of 64 bytes or more is hashed in xxHash64's four lanes: with its last avalanche, the XXH64 of the same bytes")
        func longRunsAreXXH64() {
            // XXH64 with seed 0 of bytes (i * 7 + 3) % 256, as the reference implementation (Python's xxhash) gives it.
            for (count, expected) in [(64, 0x0EB6_4B3E_F6EE_B01F), (103, 0x9CE1_E302_796D_FBC9), (1000, 0x5F23_5FA0_33F1_A3FB)] as [(Int, UInt64)] {
                let bytes = (0..<count).map { UInt8(($0 * 7 + 3) % 256) }
                var hash = bytes.withUnsafeBufferPointer(Fingerprint.lanes(of:))
                hash ^= hash >> 33
                hash &*= 0xC2B2_AE3D_27D4_EB4F
                hash ^= hash >> 29
                hash &*= 0x1656_67B1_9E37_79F9
                hash ^= hash >> 32
                #expect(hash == expected, "\(count) bytes")
            }
        }

        /// How many distinct hashes `bytes` and each copy of it with one bit flipped have.
        private static func distinctHashesOfBitFlips(_ bytes: [UInt8]) -> Int {
            var hashes = Set([Fingerprint.contents(Data(bytes))])
            for bit in 0..<(bytes.count * 8) {
                var flipped = bytes
                flipped[bit / 8] ^= 1 << UInt8(bit % 8)
                hashes.insert(Fingerprint.contents(Data(flipped)))
            }
            return hashes.count
        }

        @Test("contents of every length up to 70 bytes, and every single-bit change of 40 and of 200 bytes, hash differently")
        func distinctContents() {
            var seen = Set<String>()
            for length in 0...70 { seen.insert(Fingerprint.contents(Data(repeating: 0, count: length))) }
            #expect(seen.count == 71)
            let short = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Self.distinctHashesOfBitFlips(short) == short.count * 8 + 1)
            // A long run, hashed in four lanes, and the runs around the length where that starts.
            let long = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Self.distinctHashesOfBitFlips(long) == long.count * 8 + 1)
            #expect(Set((60...70).map { Fingerprint.contents(Data(long.prefix($0))) }).count == 11)
        }

        @Test("strings carry their lengths, so splitting text differently changes the hash")
        func stringBoundaries() {
            let splits = [["ab", "c"], ["a", "bc"], ["abc"], ["abc", ""], ["", "abc"]]
            let hashes = splits.map { parts in Self.hex { fingerprint in parts.forEach { fingerprint.combine($0) } } }
            #expect(Set(hashes).count == splits.count)
        }

        @Test("a string and its bytes hash the same, at every alignment of what came before")
        func stringsAndBytesAgree() {
            for prefix in 0..<9 {
                let lead = String(repeating: "x", count: prefix)
                let text = "Größe — \(prefix) bytes before, and some more text to span words"
                let asString = Self.hex { $0.combine(lead); $0.combine(text) }
                let asBytes = Self.hex { $0.combine(bytes: Array(lead.utf8)); $0.combine(bytes: Array(text.utf8)) }
                #expect(asString == asBytes, "prefix \(prefix)")
            }
        }

        @Test("a JSON tree's fingerprint tells kinds, order and values apart")
        func jsonKinds() throws {
            let values: [JSONValue] = [
                .null, .bool(true), .bool(false), .number(1), .string("1"), .array([]), .object(JSONObject()),
                .array([.string("a"), .string("b")]), .array([.string("b"), .string("a")]), .array([.string("ab")]),
                try JSONValue(parsing: #"{"a": 1, "b": 2}"#), try JSONValue(parsing: #"{"b": 2, "a": 1}"#),
            ]
            #expect(Set(values.map(Self.json)).count == values.count)
            #expect(Self.json(try JSONValue(parsing: #"{"a": [1, "x"]}"#)) == Self.json(try JSONValue(parsing: #"{"a":[1,"x"]}"#)))
        }

        private static func json(_ value: JSONValue) -> String {
            var fingerprint = Fingerprint()
            fingerprint.combine(value)
            return fingerprint.hex
        }
    }
}
