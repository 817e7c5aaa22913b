import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Story keys")
    struct StoryKeyTests {
        @Test("two keys are equal exactly when their UUID strings are, whether packed or not")
        func equalityFollowsTheString() {
            let identifiers = [
                "3a526768-1d22-447e-9ddd-f4158a035edd",  // packed
                "3a526768-1d22-447e-9ddd-f4158a035ede",  // packed, last digit differs
                "3A526768-1D22-447E-9DDD-F4158A035EDD",  // uppercase: held as a string
                "3a526768-1d22-447e-9ddd-f4158a035ed",  // too short
                "3a526768-1d22-447e-9ddd-f4158a035edg",  // not a hex digit
                "3a5267681-d22-447e-9ddd-f4158a035edd",  // dash out of place
                "00000000-0000-0000-0000-000000000000",  // packs to zeros, as a non-UUID's numbers are
                "1", "", "home",
            ]
            for left in identifiers {
                for right in identifiers {
                    #expect((StoryKey(left) == StoryKey(right)) == (left == right), "\(left) against \(right)")
                }
            }
        }

        @Test("equal keys hash alike, so a dictionary finds a story by a copy of its UUID")
        func dictionaryLookup() {
            let uuids = ["3a526768-1d22-447e-9ddd-f4158a035edd", "7b9c11e0-0000-4000-8000-00000000abcd", "42", "Home"]
            var positions: [StoryKey: Int] = [:]
            for (position, uuid) in uuids.enumerated() { positions[StoryKey(uuid)] = position }
            for (position, uuid) in uuids.enumerated() {
                // A copy with storage of its own, as a UUID parsed from another file has.
                let copy = String(decoding: Array(uuid.utf8), as: UTF8.self)
                #expect(positions[StoryKey(copy)] == position)
            }
            #expect(positions[StoryKey("3a526768-1d22-447e-9ddd-f4158a035ede")] == nil)
            #expect(positions[StoryKey("home")] == nil)
        }

        @Test("a story's key is the key of its UUID")
        func storyKey() throws {
            let json = #"{"uuid": "3a526768-1d22-447e-9ddd-f4158a035edd", "full_slug": "about", "content": {"component": "page"}}"#
            guard case .object(let object) = try JSONValue(parsing: json) else { throw StoryDecodingError.notAnObject }
            let story = try Story(json: object)
            #expect(story.key == StoryKey("3a526768-1d22-447e-9ddd-f4158a035edd"))
        }
    }
}
