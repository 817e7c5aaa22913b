import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Strings as bytes")
    struct StringBytesTests {
        @Test("a string made of parts at once is the parts one after the other, byte for byte", arguments: [
            ("", "", ""), ("posts", "/", "post-5"), ("a", "", "b"), ("", "/", ""),
            // Past the fifteen bytes a string holds in place, and across it.
            ("posts/2024/a-long-folder-name", "/", "index.html"), ("0123456789", "abcde", "f"),
            // Composed and decomposed forms stay as they are: no part is normalized.
            ("caf\u{E9}", "/", "e\u{301}"), ("😀", "ü", "\u{0}"),
        ])
        func concatenating(first: String, second: String, third: String) {
            let joined = String(concatenating: first, second, third)
            #expect(Array(joined.utf8) == Array(first.utf8) + Array(second.utf8) + Array(third.utf8))
            #expect(String(concatenating: first, second).hasSameUTF8(as: first + second))
        }

        @Test("parts cut from other strings are joined as well")
        func substrings() {
            let path = "/blog/post/index.html"
            let folder = String(path.utf8.dropFirst().prefix(9))!
            #expect(String(concatenating: folder, "/", String(path.split(separator: "/").last!)) == "blog/post/index.html")
        }
    }
}
