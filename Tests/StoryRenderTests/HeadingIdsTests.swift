import Mustache
import StoryModel
import StoryRender
import Testing

@Suite("Richtext heading ids and page.toc")
struct HeadingIdsTests {
    static let relatedUUID = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"

    static func heading(_ level: Int, _ text: String, align: String? = nil) -> String {
        let attrs = align.map { #"{"level": \#(level), "textAlign": "\#($0)"}"# } ?? #"{"level": \#(level)}"#
        return #"{"type": "heading", "attrs": \#(attrs), "content": [{"type": "text", "text": "\#(text)"}]}"#
    }

    static func doc(_ nodes: [String]) -> String {
        #"{"type": "doc", "content": [\#(nodes.joined(separator: ", "))]}"#
    }

    /// The post's content: `intro` and `more` richtext fields (the second inside a nested block,
    /// with a `blok` node whose component holds a third), and a relation to a story with a heading of its own.
    static let content = #"""
    {"component": "post", "_uid": "1",
     "intro": \#(doc([heading(2, "Setup"), #"{"type": "paragraph", "content": [{"type": "text", "text": "Hi"}]}"#, heading(3, "Step 1: Install!")])),
     "body": [{"component": "section", "_uid": "2",
               "more": \#(doc([heading(2, "Setup", align: "center"),
                               #"{"type": "blok", "attrs": {"body": [{"component": "note", "_uid": "3", "text": \#(doc([heading(4, "¿Qué?")]))}]}}"#,
                               heading(1, "!!!"), heading(2, "Setup")]))}],
     "related": "\#(relatedUUID)"}
    """#

    static let templates = [
        "pages/post": "{{{intro}}}{{#body}}{{>*component}}{{/body}}{{#related}}[{{{content.text}}}]{{/related}}"
            + "\n{{#page.toc}}{{level}}|{{text}}|{{href}};{{/page.toc}}",
        "components/section": "{{{more}}}",
        "components/note": "<aside>{{{text}}}</aside>",
    ]

    static func render(_ richtext: RichtextSettings?) throws -> RenderedPage {
        let post = parseStory(#"{"uuid": "uuid-post", "full_slug": "blog/post", "name": "A post", "content": \#(content)}"#)
        let related = parseStory(#"""
            {"uuid": "\#(relatedUUID)", "full_slug": "other", "name": "Other",
             "content": {"component": "page", "_uid": "9", "text": \#(doc([heading(2, "Setup")]))}}
            """#)
        let stories = testStories.filter { $0.uuid != "uuid-post" } + [post, related]
        let library = try TemplateLibrary(templates: templates)
        let resolver = TestResolver(stories: stories, withoutPage: ["uuid-global"])
        let renderer = richtext.map { PageRenderer(library: library, resolver: resolver, richtext: $0) }
            ?? PageRenderer(library: library, resolver: resolver)
        return try renderer.render(post)
    }

    @Test("slugs: lower case, letters and digits kept, other runs one '-', trimmed; empty is 'section'")
    func slugs() {
        #expect(HeadingOutline.slug("Setup") == "setup")
        #expect(HeadingOutline.slug("  Step 1: Install!  ") == "step-1-install")
        #expect(HeadingOutline.slug("¿Qué pasa?") == "qué-pasa")
        #expect(HeadingOutline.slug("A -- B __ C") == "a-b-c")
        #expect(HeadingOutline.slug("!!!") == "section")
        #expect(HeadingOutline.slug("") == "section")
    }

    @Test("ids are unique within an outline, even against a heading that reads like a numbered one")
    func uniqueness() {
        let outline = HeadingOutline()
        #expect(["Setup", "Setup", "setup-3", "Setup", "", "?"].map { outline.add(level: 2, text: $0) }
            == ["setup", "setup-2", "setup-3", "setup-4", "section", "section-2"])
        #expect(outline.headings.map(\.level) == [2, 2, 2, 2, 2, 2])
    }

    @Test("the renderer gives headings ids before their style, from their plain text")
    func renderer() {
        let outline = HeadingOutline()
        let renderer = RichtextRenderer(links: PageLinks(resolver: testResolver, pageURL: ""), story: "home", headings: outline) { _, _, _ in "" }
        var warnings: [RenderWarning] = []
        let document = json(Self.doc([
            Self.heading(2, "Setup", align: "center"),
            #"{"type": "heading", "attrs": {"level": 9}, "content": [{"type": "text", "text": "Bold", "marks": [{"type": "bold"}]}, {"type": "hard_break"}, {"type": "text", "text": " & <more>"}]}"#,
        ]))
        let html = renderer.render(document, fieldPath: "text", warnings: &warnings)
        #expect(html == #"<h2 id="setup" style="text-align: center;">Setup</h2><h6 id="bold-more"><strong>Bold</strong><br> &amp; &lt;more&gt;</h6>"#)
        #expect(outline.headings == [.init(level: 2, text: "Setup", id: "setup"), .init(level: 6, text: "Bold & <more>", id: "bold-more")])
        #expect(warnings.isEmpty)
    }

    @Test("page.toc lists the page's own headings across fields in document order; related content adds none")
    func pageTOC() throws {
        let page = try Self.render(RichtextSettings(headingIds: true))
        let expected = #"<h2 id="setup">Setup</h2><p>Hi</p><h3 id="step-1-install">Step 1: Install!</h3>"#
            + #"<h2 id="setup-2" style="text-align: center;">Setup</h2><aside><h4 id="qué">¿Qué?</h4></aside><h1 id="section">!!!</h1><h2 id="setup-3">Setup</h2>"#
            + "[<h2>Setup</h2>]"
            + "\n2|Setup|#setup;3|Step 1: Install!|#step-1-install;2|Setup|#setup-2;4|¿Qué?|#qué;1|!!!|#section;2|Setup|#setup-3;"
        #expect(page.html == expected)
        #expect(page.warnings.isEmpty)
    }

    @Test("off by default: no ids, no page.toc, the same bytes as heading ids set to false")
    func offByDefault() throws {
        let plain = try Self.render(nil)
        #expect(plain == (try Self.render(RichtextSettings(headingIds: false))))
        #expect(plain.html.hasPrefix(#"<h2>Setup</h2><p>Hi</p><h3>Step 1: Install!</h3><h2 style="text-align: center;">Setup</h2>"#))
        #expect(!plain.html.contains("id="))
        #expect(plain.html.hasSuffix("[<h2>Setup</h2>]\n"))
    }
}
