import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Site paths as story references")
    struct SitePathReferenceTests {
        private func parse(
            _ target: String, from fullSlug: String = "docs/guides/setup", baseURL: String? = nil,
            rootSlug: String = SitePathReference.defaultRootSlug
        ) -> String? {
            guard let parsed = SitePathReference.parse(target, from: fullSlug, baseURL: baseURL, rootSlug: rootSlug) else { return nil }
            return parsed.reference.description + (parsed.anchor.map { "#" + $0 } ?? "")
        }

        @Test("reads root paths, with a trailing slash, an anchor or a query")
        func rootPaths() {
            #expect(parse("/blog/post") == "blog/post")
            #expect(parse("/blog/post/") == "blog/post/")
            #expect(parse("/blog/post#intro") == "blog/post#intro")
            #expect(parse("/blog/post?page=2#intro") == "blog/post#intro")
            #expect(parse("/blog/post#") == "blog/post")
            #expect(parse("  /blog/post  ") == "blog/post")
            #expect(parse("/") == "home")
            #expect(parse("/#top") == "home#top")
            #expect(parse("/blog/./a/../post") == "blog/post")
            #expect(parse("/caf%C3%A9") == "café")
            #expect(parse("/a%20b/c%2") == "a%20b/c%2")
            #expect(parse("/caf%C3") == "caf%C3")
        }

        @Test("reads relative paths against the story's folder")
        func relativePaths() {
            #expect(parse("./install") == "docs/guides/install")
            #expect(parse("install") == "docs/guides/install")
            #expect(parse("../faq") == "docs/faq")
            #expect(parse("../../about#team") == "about#team")
            #expect(parse("../../../../about") == "about")
            #expect(parse("./") == "docs/guides/")
            #expect(parse("..") == "docs/")
            #expect(parse("./x", from: "docs/") == "docs/x")
            #expect(parse("../x", from: "docs/") == "x")
            #expect(parse("./x", from: "about") == "x")
            #expect(parse("./x", from: "/docs/guides/setup") == "docs/guides/x")
        }

        @Test("reads links to the configured base URL as root paths")
        func baseURL() {
            #expect(parse("https://base.example/blog/", baseURL: "https://base.example/") == "blog/")
            #expect(parse("https://base.example/blog/post#a", baseURL: "https://base.example") == "blog/post#a")
            #expect(parse("HTTPS://Base.Example/about", baseURL: "https://base.example/") == "about")
            #expect(parse("https://base.example", baseURL: "https://base.example/") == "home")
            #expect(parse("https://base.example/site/about", baseURL: "https://base.example/site/") == "about")
            #expect(parse("https://base.example.org/about", baseURL: "https://base.example") == nil)
            #expect(parse("https://other.example/about", baseURL: "https://base.example/") == nil)
            // Only letters differ by case: `@` and a backquote are one bit apart as `A` and `a` are.
            #expect(parse("https://base.example/@/about", baseURL: "https://base.example/`/") == nil)
            #expect(parse("https://BÜCHER.example/about", baseURL: "https://bücher.example/") == "about")
            #expect(parse("https://bücher.example/about", baseURL: "https://bucher.example/") == nil)
        }

        @Test("reads the site root as the root story, whatever its slug")
        func rootStory() {
            #expect(parse("/", rootSlug: "en/home") == "en/home")
            #expect(parse("/#top", rootSlug: "en/home") == "en/home#top")
            #expect(parse("/?page=2", rootSlug: "en/home") == "en/home")
            #expect(parse("/./", rootSlug: "en/home") == "en/home")
            #expect(parse("../..", from: "en/docs/setup", rootSlug: "en/home") == "en/home")
            #expect(parse("https://base.example", baseURL: "https://base.example/", rootSlug: "en/home") == "en/home")
            #expect(parse("/home", rootSlug: "en/home") == "home")
            #expect(parse("/en/about", rootSlug: "en/home") == "en/about")
        }

        @Test("leaves alone what is not a story: schemes, protocol-relative URLs, fragments and files")
        func notStories() {
            for target in ["https://example.com/a", "mailto:a@example.com", "tel:+123", "//cdn.example/a",
                           "#intro", "?page=2", "", "   ", "/assets/a.png", "./report.pdf", "/a/b.html#x"] {
                #expect(parse(target) == nil, "\(target)")
            }
        }
    }
}
