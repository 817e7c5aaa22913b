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

        @Test("many strings sort by their bytes in one go: long shared beginnings, zero bytes and repeats, repeats in the order given")
        func sortsManyAtOnce() {
            var generator = SystemRandomNumberGenerator()
            // Pieces long enough that many strings share their first 24 bytes and differ after them.
            let pieces = ["posts/2024/", "a", "ü", "\u{0}", "post-", "1", "10", "/index.html", "é", "e\u{301}"]
            let strings = (0..<2_000).map { _ in
                (0..<Int.random(in: 0...7, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            let order = ByteOrder.order(of: strings)
            let expected = strings.indices.sorted { lhs, rhs in
                strings[lhs].utf8.elementsEqual(strings[rhs].utf8)
                    ? lhs < rhs : strings[lhs].utf8.lexicographicallyPrecedes(strings[rhs].utf8)
            }
            #expect(order == expected)
            #expect(ByteOrder.sorted(strings).map { Array($0.utf8) } == expected.map { Array(strings[$0].utf8) })
            let dictionary = Dictionary(strings.map { ($0, 0) }, uniquingKeysWith: { first, _ in first })
            #expect(ByteOrder.sortedIndices(of: dictionary).map { Array(dictionary[$0].key.utf8) }
                == dictionary.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }
}
