import Testing
@testable import SiteOutput

@Suite("SiteOutput")
struct SiteOutputTests {}

extension SiteOutputTests {
    @Suite("Page locations")
    struct PageLocationTests {
        @Test("home maps to the root index and posts to pretty folder URLs")
        func prettyURLs() throws {
            func location(_ slug: String, isHome: Bool = false) throws -> [String] {
                let location = try PageLocation(fullSlug: slug, isHome: isHome)
                return [location.url, location.filePath]
            }
            #expect(try location("home", isHome: true) == ["", "index.html"])
            #expect(try location("blog/post") == ["blog/post/", "blog/post/index.html"])
            #expect(try location("blog/") == ["blog/", "blog/index.html"])
            #expect(try location("about") == ["about/", "about/index.html"])
        }

        @Test("slugs that could escape the output folder are rejected with the reason", arguments: [
            ("../etc/passwd", "slug '../etc/passwd' cannot be a page path: it contains a '..' segment"),
            ("blog/../../x", "slug 'blog/../../x' cannot be a page path: it contains a '..' segment"),
            ("/etc/passwd", "slug '/etc/passwd' cannot be a page path: it is an absolute path"),
            ("blog\\post", "slug 'blog\\\\post' cannot be a page path: it contains a backslash"),
            ("blog/\u{1}x", "slug 'blog/\\u{01}x' cannot be a page path: it contains a control character"),
            ("a//b", "slug 'a//b' cannot be a page path: it contains an empty segment ('//')"),
            ("./x", "slug './x' cannot be a page path: it contains a '.' segment"),
            ("", "slug '' cannot be a page path: it is empty"),
            (".git", "slug '.git' cannot be a page path: '.git' starts with a dot (hidden files belong to the user, and hosts do not serve them)"),
            ("blog/.hidden/", "slug 'blog/.hidden/' cannot be a page path: '.hidden' starts with a dot (hidden files belong to the user, and hosts do not serve them)"),
            ("sitemap.xml", "slug 'sitemap.xml' cannot be a page path: 'sitemap.xml' is a file storysite writes itself"),
            ("404.html/", "slug '404.html/' cannot be a page path: '404.html' is a file storysite writes itself"),
            ("blog/index.html/post", "slug 'blog/index.html/post' cannot be a page path: 'index.html' is the file of every page, so it cannot also be a folder of one"),
            ("sitemap.xml/.x", "slug 'sitemap.xml/.x' cannot be a page path: '.x' starts with a dot (hidden files belong to the user, and hosts do not serve them)"),
            // Found by the urls fuzzer: a combining mark after the `/` of `../` joined it into one character.
            ("../\u{35A}x", "slug '../\u{35A}x' cannot be a page path: it contains a '..' segment"),
        ])
        func unsafeSlugs(slug: String, message: String) {
            #expect {
                try PageLocation(fullSlug: slug, isHome: false)
            } throws: { error in
                (error as? UnsafeSlugError)?.description == message
            }
        }

        @Test("a folder whose name's first byte is a dot is hidden, whatever mark follows the dot")
        func dotThenMark() {
            #expect {
                try PageLocation(fullSlug: "blog/.\u{301}x/post", isHome: false)
            } throws: { error in
                (error as? UnsafeSlugError)?.reason.hasSuffix("starts with a dot (hidden files belong to the user, and hosts do not serve them)") == true
            }
        }
    }
}
