import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Inserting into a dictionary only where a key is new")
    struct DictionaryInsertionTests {
        @Test("the first value given for a key stays, and the answer says whether this one was set")
        func firstStays() {
            var bySlug: [String: Int] = [:]
            let set = [(1, "blog/post"), (2, "blog/post"), (3, "about"), (4, "about")].map { bySlug.insertIfAbsent($0, forKey: $1) }
            #expect(set == [true, false, true, false])
            #expect(bySlug == ["blog/post": 1, "about": 3])
        }

        @Test("canonically equal keys are one key, as Swift's == has them")
        func canonicalKeys() {
            var names: [String: String] = ["caf\u{E9}": "composed"]
            let set = names.insertIfAbsent("decomposed", forKey: "cafe\u{301}")
            #expect(!set)
            #expect(names == ["caf\u{E9}": "composed"])
        }
    }
}
