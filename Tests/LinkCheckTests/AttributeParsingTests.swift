@testable import LinkCheck
import Testing

extension LinkCheckTests {
    @Suite("Attribute parsing")
    struct AttributeParsingTests {
        private func candidates(_ srcset: String) -> [String] {
            Array(srcset.utf8).withUnsafeBufferPointer { Srcset.candidateURLs($0) }.map { String(decoding: $0, as: UTF8.self) }
        }

        private func refreshURL(_ content: String) -> String? {
            Array(content.utf8).withUnsafeBufferPointer { MetaRefresh.url(inContent: $0) }.map { String(decoding: $0, as: UTF8.self) }
        }

        @Test("srcset splits at commas ending descriptors, keeps commas inside URLs, and drops trailing commas")
        func srcset() {
            #expect(candidates("a.jpg 1x,b.jpg 2x, c.jpg 3x") == ["a.jpg", "b.jpg", "c.jpg"])
            #expect(candidates("  img,1.jpg 100w , img,2.jpg 200w") == ["img,1.jpg", "img,2.jpg"])
            #expect(candidates("a.jpg,, b.jpg") == ["a.jpg", "b.jpg"])
            #expect(candidates("a.jpg (max-width: 1px, bogus) 1x, b.jpg") == ["a.jpg", "b.jpg"])
            #expect(candidates(" , ").isEmpty)
        }

        @Test("a refresh URL follows a delay and ';' or ',', with or without 'url=', quoted or not")
        func metaRefresh() {
            #expect(refreshURL("5; url=next.html") == "next.html")
            #expect(refreshURL("0;URL='quoted.html'") == "quoted.html")
            #expect(refreshURL(#"0, url = "double.html" trailing"#) == "double.html")
            #expect(refreshURL("3 bare.html") == "bare.html")
            #expect(refreshURL("1.5;url=dotted.html") == "dotted.html")
            #expect(refreshURL("10") == nil)
            #expect(refreshURL("soon; url=x.html") == nil)
        }

        @Test("link text is stripped, sorted into its forms, and its path, query and fragment split")
        func linkText() {
            #expect(LinkText(Array(" \n".utf8)).form == .empty)
            #expect(LinkText(Array(" # ".utf8)).form == .bareHash)
            #expect(LinkText(Array("JavaScript:go()".utf8)).form == .notALink)
            #expect(LinkText(Array("HTTPS://x.test/".utf8)).form == .absolute(scheme: "https", text: Array("HTTPS://x.test/".utf8)))
            #expect(LinkText(Array("\\\\x.test\\a".utf8)).form == .networkPath(text: Array("//x.test/a".utf8)))
            let text = LinkText(Array("a b\\c.html?q=\\#frag\\".utf8))
            #expect(text.form == .reference(path: Array("a b/c.html?q=\\#frag\\".utf8)[0..<10], fragment: Array("a b/c.html?q=\\#frag\\".utf8)[15...]))
            #expect(text.hasRawSpace && text.hasBackslash)
        }

        @Test("paths resolve with dot segments in any spelling, clamp at the root, collapse slashes and decode once")
        func sitePaths() {
            func resolve(_ reference: String, from directory: String) -> String {
                let path = SitePath.resolve(Array(reference.utf8)[...], against: Array(directory.utf8))
                return String(decoding: path.bytes, as: UTF8.self) + (path.hasEncodedSlash ? " (%2F)" : "")
            }
            #expect(resolve("../x.html", from: "a/b/") == "a/x.html")
            #expect(resolve("%2E%2e/.%2E/%2e/x", from: "a/b/") == "x")
            #expect(resolve("/../../x/", from: "a/") == "x/")
            #expect(resolve("..", from: "a/b/") == "a/")
            #expect(resolve(".", from: "a/") == "a/")
            #expect(resolve("x//y", from: "") == "x/y")
            #expect(resolve("%2541%2Fb", from: "") == "%41/b (%2F)")
        }
    }
}
