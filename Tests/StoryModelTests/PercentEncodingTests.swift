import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Percent-encoding of URL paths")
    struct PercentEncodingTests {
        /// The bytes RFC 3986 lets stand in a path as they are (`pchar` but `;`, and `/`).
        static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,=:@/".utf8)

        @Test("every ASCII byte stands as it is in a path exactly when RFC 3986 allows it there, else as %XX in upper case")
        func everyASCIIByte() {
            for byte in UInt8(0x01)...UInt8(0x7F) {
                let path = String(decoding: [UInt8(ascii: "a"), byte], as: UTF8.self)
                let expected = Self.allowed.contains(byte) ? path : "a%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                #expect(PercentEncoding.path(path) == expected, "byte \(byte)")
            }
        }

        @Test("non-ASCII text is written as its UTF-8 bytes, and a path that needs nothing is returned as it is")
        func nonASCII() {
            #expect(PercentEncoding.path("blog/café/") == "blog/caf%C3%A9/")
            #expect(PercentEncoding.path("posts/post-5/") == "posts/post-5/")
            #expect(PercentEncoding.absoluteURL("a b/", under: "https://example.com") == "https://example.com/a%20b/")
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
