import StoryModel
import StoryRender
import Testing

@Suite("Richtext links resolve through the link resolver")
struct RichtextLinkTests {
    static let links: [Golden] = [
        Golden("url link with target", text("Click", link("https://example.com", target: "_blank")),
               #"<a href="https://example.com" target="_blank">Click</a>"#),
        Golden("link without linktype is a url link", text("Click", #"{"type":"link","attrs":{"href":"https://url.com"}}"#),
               #"<a href="https://url.com">Click</a>"#),
        Golden("story link by UUID, relative to the page", text("About", link("/about-old", linktype: "story", uuid: "uuid-about")),
               #"<a href="../../about/">About</a>"#),
        Golden("story link to home", text("Home", link("/", linktype: "story", uuid: "uuid-home")), #"<a href="../../">Home</a>"#),
        Golden("story link to a folder start page", text("Blog", link("/blog/", linktype: "story", uuid: "uuid-blog")), #"<a href="../">Blog</a>"#),
        Golden("story link with anchor", text("Team", link("/about", linktype: "story", anchor: "team", uuid: "uuid-about")),
               #"<a href="../../about/#team">Team</a>"#),
        Golden("self link with anchor is a fragment", text("Intro", link("/blog/post", linktype: "story", anchor: "intro", uuid: "uuid-post")),
               ##"<a href="#intro">Intro</a>"##),
        Golden("story link falls back to href as a slug", text("About", link("/about", linktype: "story")), #"<a href="../../about/">About</a>"#),
        Golden("story link with unknown UUID falls back to href", text("About", link("about", linktype: "story", uuid: "uuid-unknown")),
               #"<a href="../../about/">About</a>"#),
        Golden("story link by numeric id", text("About", link("", linktype: "story", uuid: "2")), #"<a href="../../about/">About</a>"#),
        Golden("url link to a site path goes to the page", text("About", link("/about")), #"<a href="../../about/">About</a>"#),
        Golden("url link relative to the story's folder", text("About", link("../about")), #"<a href="../../about/">About</a>"#),
        Golden("url link to the base URL goes to the page", text("Team", link("https://site.example/about#team")),
               #"<a href="../../about/#team">Team</a>"#),
        Golden("url link to an unknown site path stays as written", text("File", link("/downloads/")), #"<a href="/downloads/">File</a>"#),
        Golden("story link keeps its target", text("About", link("/about", linktype: "story", target: "_self", uuid: "uuid-about")),
               #"<a href="../../about/" target="_self">About</a>"#),
        Golden("email link", text("Email", link("test@example.com", linktype: "email")), #"<a href="mailto:test@example.com">Email</a>"#),
        Golden("email link already with mailto", text("Email", link("mailto:hey@example.com", linktype: "email")),
               #"<a href="mailto:hey@example.com">Email</a>"#),
        Golden("asset link", text("Download", link("https://a.storyblok.com/f/1/file.pdf", linktype: "asset")),
               #"<a href="https://a.storyblok.com/f/1/file.pdf">Download</a>"#),
        Golden("empty href renders no href", text("Nothing", link("")), "<a>Nothing</a>"),
        Golden("empty story link renders no href", text("Nothing", link("", linktype: "story", uuid: "")), "<a>Nothing</a>"),
        Golden("link without attributes", text("Bare", #"{"type":"link"}"#), "<a>Bare</a>"),
        Golden("custom attributes are kept", text("Go", link("https://example.com", custom: #"{"rel":"nofollow","title":"google","data-track":"1"}"#)),
               #"<a href="https://example.com" rel="nofollow" title="google" data-track="1">Go</a>"#),
        Golden("link is outermost whatever the mark order", text("cell", link("/c") + #",{"type":"superscript"}"#),
               #"<a href="/c"><sup>cell</sup></a>"#),
        Golden("adjacent runs with the same link share one a",
               paragraph(text("Hello ", link("/url")), text("World", link("/url"))), #"<p><a href="/url">Hello World</a></p>"#),
        Golden("inner marks are kept when merging",
               paragraph(text("normal ", link("/url")), text("bold", #"{"type":"bold"},"# + link("/url")), text(" text", link("/url"))),
               #"<p><a href="/url">normal <strong>bold</strong> text</a></p>"#),
        Golden("several inner marks when merging",
               paragraph(text("start ", link("/url")), text("bold", #"{"type":"bold"},"# + link("/url")), text(" and ", link("/url")),
                         text("italic", #"{"type":"italic"},"# + link("/url")), text(" end", link("/url"))),
               #"<p><a href="/url">start <strong>bold</strong> and <em>italic</em> end</a></p>"#),
        Golden("a non-text node breaks the group",
               paragraph(text("Before ", link("/x")), #"{"type":"hard_break"}"#, text("After", link("/x"))),
               #"<p><a href="/x">Before </a><br><a href="/x">After</a></p>"#),
        Golden("different link attributes break the group",
               paragraph(text("A", link("/a")), text("B", link("/a", target: "_blank"))),
               #"<p><a href="/a">A</a><a href="/a" target="_blank">B</a></p>"#),
        Golden("same custom attributes merge",
               paragraph(text("Hello ", link("/a", custom: #"{"title":"google"}"#)), text("Storyblok", link("/a", custom: #"{"title":"google"}"#))),
               #"<p><a href="/a" title="google">Hello Storyblok</a></p>"#),
        Golden("different custom attributes separate",
               paragraph(text("A", link("/a", custom: #"{"title":"google"}"#)), text("B", link("/a", custom: #"{"title":"new"}"#))),
               #"<p><a href="/a" title="google">A</a><a href="/a" title="new">B</a></p>"#),
        Golden("unlinked text between links separates them",
               paragraph(text("A", link("/a")), text(" "), text("B", link("/a"))),
               #"<p><a href="/a">A</a> <a href="/a">B</a></p>"#),
    ]

    @Test("each link kind renders its golden HTML, never showing uuid or linktype", arguments: links)
    func linkKind(_ golden: Golden) {
        let html = renderRichtext(golden.input).html
        #expect(html == golden.expected)
        #expect(!html.contains("uuid") && !html.contains("linktype") && !html.contains("anchor="))
    }

    @Test("links resolve relative to the page being rendered")
    func relativeToPage() {
        let input = text("About", link("/about", linktype: "story", uuid: "uuid-about"))
        #expect(renderRichtext(input, page: "").html == #"<a href="about/">About</a>"#)
        #expect(renderRichtext(input, page: "blog/").html == #"<a href="../about/">About</a>"#)
        #expect(renderRichtext(input, page: "about/").html == #"<a href="./">About</a>"#)
        let home = text("Home", link("/", linktype: "story", uuid: "uuid-home"))
        #expect(renderRichtext(home, page: "").html == #"<a href="./">Home</a>"#)
    }

    @Test("a broken story link points where its saved slug's page would be and is reported with story and field path")
    func brokenLink() {
        let input = doc(paragraph(text("x"), text("Gone", link("/gone", linktype: "story", anchor: "top", uuid: "uuid-gone"))))
        let (html, warnings) = renderRichtext(input)
        #expect(html == #"<p>x<a href="../../gone#top">Gone</a></p>"#)
        #expect(warnings.count == 1)
        #expect(warnings.first?.kind == .brokenLink)
        #expect(warnings.first?.story == "blog/post")
        #expect(warnings.first?.fieldPath == "body[0].text.content[0].content[1].marks[0]")
        #expect(warnings.first?.message.contains("uuid-gone") == true)
    }

    @Test("a story link to a story without a page is reported")
    func linkToStoryWithoutPage() {
        let (html, warnings) = renderRichtext(text("Nav", link("global", linktype: "story", uuid: "uuid-global")))
        #expect(html == #"<a href="../../global">Nav</a>"#)
        #expect(warnings.map(\.kind) == [.brokenLink])
    }

    @Test("a broken story link with neither UUID nor href renders without href and is not reported")
    func emptyStoryLink() {
        let (html, warnings) = renderRichtext(text("x", link("", linktype: "story")))
        #expect(html == "<a>x</a>")
        #expect(warnings.isEmpty)
    }
}
