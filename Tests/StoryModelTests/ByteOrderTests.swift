import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Byte order of strings")
    struct ByteOrderTests {
        @Test("strings sort by their UTF-8 bytes: prefixes first, é after z, and canonically equal forms apart", arguments: [
            ("", "a", true), ("a", "", false), ("", "", false),
            ("blog", "blog/", true), ("blog/", "blog", false), ("blog/a", "blog/b", true),
            ("Z", "a", true), ("z", "é", true), ("é", "z", false),
            // "é" composed (C3 A9) and decomposed (65 CC 81): equal to `<`, apart in bytes.
            ("\u{E9}", "e\u{301}", false), ("e\u{301}", "\u{E9}", true),
        ])
        func order(lhs: String, rhs: String, precedes: Bool) {
            #expect(lhs.utf8Precedes(rhs) == precedes)
            #expect(lhs.utf8Precedes(rhs) == lhs.utf8.lexicographicallyPrecedes(rhs.utf8))
        }

        @Test("sorting by it is sorting by the bytes, for paths of every length")
        func sortsLikeBytes() {
            var generator = SystemRandomNumberGenerator()
            let pieces = ["a", "b", "post-", "ü", "/", "1", "10", "😀"]
            let paths = (0..<500).map { _ in
                (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            #expect(paths.sorted { $0.utf8Precedes($1) }.map { Array($0.utf8) }
                == paths.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }
}
