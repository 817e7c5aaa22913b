import StoryRender
import Testing

@Suite("Relative URLs between pages")
struct RelativeURLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var from: String
        var to: String
        var expected: String
        var testDescription: String { "from '\(from)' to '\(to)'" }
    }

    static let hrefs: [Case] = [
        Case(from: "blog/post/", to: "about/", expected: "../../about/"),
        Case(from: "blog/post/", to: "blog/other/", expected: "../other/"),
        Case(from: "blog/post/", to: "blog/", expected: "../"),
        Case(from: "blog/post/", to: "", expected: "../../"),
        Case(from: "blog/post/", to: "blog/post/", expected: "./"),
        Case(from: "blog/post/", to: "blog/post/#intro", expected: "#intro"),
        Case(from: "blog/post/", to: "about/#team", expected: "../../about/#team"),
        Case(from: "blog/post/", to: "blog/post/deeper/", expected: "deeper/"),
        Case(from: "blog/post/", to: "assets/x.svg", expected: "../../assets/x.svg"),
        Case(from: "blog/", to: "blog/post/", expected: "post/"),
        Case(from: "blog/", to: "", expected: "../"),
        Case(from: "", to: "", expected: "./"),
        Case(from: "", to: "#top", expected: "#top"),
        Case(from: "", to: "about/", expected: "about/"),
        Case(from: "", to: "assets/x.svg", expected: "assets/x.svg"),
        Case(from: "", to: "?page=2", expected: "./?page=2"),
        Case(from: "a/b/c/", to: "a/x/y/", expected: "../../x/y/"),
        Case(from: "blog/list.html", to: "blog/", expected: "./"),
        Case(from: "blog/list.html", to: "blog/#x", expected: "./#x"),
        Case(from: "blog/list.html", to: "about/", expected: "../about/"),
        Case(from: "404.html", to: "", expected: "./"),
        Case(from: "blog/post/", to: "/about/", expected: "../../about/"),
    ]

    @Test("hrefs from one page to another", arguments: hrefs)
    func href(_ example: Case) {
        #expect(RelativeURL.href(from: example.from, to: example.to) == example.expected)
    }

    /// Found by the `urls` fuzz target: from the home page, a page slugged `javascript:alert(1)`
    /// got the href `javascript:alert(1)/`, which a browser runs as a script URL.
    @Test("a first segment holding a colon gets ./ so that it is not read as a scheme", arguments: [
        Case(from: "", to: "javascript:alert(1)/", expected: "./javascript:alert(1)/"),
        Case(from: "blog/", to: "blog/mailto:a/", expected: "./mailto:a/"),
        Case(from: "b.~", to: "~xxb:bbbbbbbbbb", expected: "./~xxb:bbbbbbbbbb"),
        Case(from: "blog/post/", to: "a:b/", expected: "../../a:b/"),
        Case(from: "", to: "docs/a:b/", expected: "docs/a:b/"),
    ])
    func colonInFirstSegment(_ example: Case) {
        #expect(RelativeURL.href(from: example.from, to: example.to) == example.expected)
    }

    @Test("the root prefix for assets")
    func root() {
        #expect(RelativeURL.root(of: "") == "./")
        #expect(RelativeURL.root(of: "about/") == "../")
        #expect(RelativeURL.root(of: "blog/post/") == "../../")
        #expect(RelativeURL.root(of: "404.html") == "./")
    }

    @Test("site-root paths become relative; other URLs stay as they are")
    func siteRoot() {
        #expect(PageLinks(resolver: testResolver, pageURL: "blog/post/").resolvingSiteRoot("/assets/x.svg") == "../../assets/x.svg")
        #expect(PageLinks(resolver: testResolver, pageURL: "blog/post/").resolvingSiteRoot("/") == "../../")
        #expect(PageLinks(resolver: testResolver, pageURL: "").resolvingSiteRoot("/") == "./")
        #expect(PageLinks(resolver: testResolver, pageURL: "blog/").resolvingSiteRoot("https://a.storyblok.com/f/1/x.png") == "https://a.storyblok.com/f/1/x.png")
        #expect(PageLinks(resolver: testResolver, pageURL: "blog/").resolvingSiteRoot("//cdn.example.com/x.png") == "//cdn.example.com/x.png")
        #expect(PageLinks(resolver: testResolver, pageURL: "blog/").resolvingSiteRoot("x.png") == "x.png")
        #expect(PageLinks(resolver: testResolver, pageURL: "blog/").resolvingSiteRoot("#top") == "#top")
        #expect(PageLinks(resolver: testResolver, absoluteRoot: "/docs").resolvingSiteRoot("/assets/x.svg") == "/docs/assets/x.svg")
    }
}
