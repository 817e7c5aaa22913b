import StoryModel
import StoryRender
import Testing

@Suite("Richtext nodes render like @storyblok/richtext")
struct RichtextNodeTests {
    static let nodes: [Golden] = [
        Golden("paragraph", paragraph(text("Hello")), "<p>Hello</p>"),
        Golden("empty paragraph", #"{"type":"paragraph"}"#, "<p></p>"),
        Golden("empty doc", #"{"type":"doc","content":[]}"#, ""),
        Golden("text node alone", text("Just text"), "Just text"),
        Golden("nested doc renders without wrapper",
               doc(paragraph(text("Outer")), doc(paragraph(text("Inner")))), "<p>Outer</p><p>Inner</p>"),
        Golden("array of nodes", "[\(paragraph(text("First"))),\(paragraph(text("Second")))]", "<p>First</p><p>Second</p>"),
        Golden("blockquote", #"{"type":"blockquote","content":[\#(paragraph(text("Quote")))]}"#,
               "<blockquote><p>Quote</p></blockquote>"),
        Golden("bullet list",
               #"{"type":"bullet_list","content":[{"type":"list_item","content":[\#(paragraph(text("List")))]}]}"#,
               "<ul><li><p>List</p></li></ul>"),
        Golden("ordered list starting at 5",
               #"{"type":"ordered_list","attrs":{"order":5},"content":[{"type":"list_item","content":[\#(paragraph(text("Ordered")))]}]}"#,
               #"<ol start="5"><li><p>Ordered</p></li></ol>"#),
        Golden("ordered list starting at 1 has no start",
               #"{"type":"ordered_list","attrs":{"order":1},"content":[{"type":"list_item","content":[]}]}"#,
               "<ol><li></li></ol>"),
        Golden("ordered list with order as a string", #"{"type":"ordered_list","attrs":{"order":"3"}}"#, #"<ol start="3"></ol>"#),
        Golden("code block with class", #"{"type":"code_block","attrs":{"class":"js"},"content":[\#(text("const x = 1;"))]}"#,
               #"<pre><code class="js">const x = 1;</code></pre>"#),
        Golden("code block with language", #"{"type":"code_block","attrs":{"language":"swift"},"content":[\#(text("let x = 1"))]}"#,
               #"<pre><code class="language-swift">let x = 1</code></pre>"#),
        Golden("code block without class", #"{"type":"code_block","attrs":{"class":null},"content":[\#(text("a < b"))]}"#,
               "<pre><code>a &lt; b</code></pre>"),
        Golden("hard break", paragraph(text("a"), #"{"type":"hard_break"}"#, text("b")), "<p>a<br>b</p>"),
        Golden("horizontal rule", #"{"type":"horizontal_rule"}"#, "<hr>"),
        Golden("image from Storyblok's attribute order to @storyblok/richtext's (id, src, alt, title), metadata dropped",
               #"{"type":"image","attrs":{"id":1,"alt":"Image","src":"https://example.com/image.jpg","title":"Title","source":null,"copyright":null,"meta_data":null}}"#,
               #"<img id="1" src="https://example.com/image.jpg" alt="Image" title="Title">"#),
        Golden("image with a string id and metadata, which is dropped",
               #"{"type":"image","attrs":{"title":"Photo Title","alt":"Photo","src":"https://example.com/photo.png","id":"a1","source":"Camera","copyright":"© 2024","meta_data":{"alt":"Photo"}}}"#,
               #"<img id="a1" src="https://example.com/photo.png" alt="Photo" title="Photo Title">"#),
        Golden("image with empty and null attributes",
               #"{"type":"image","attrs":{"src":"https://example.com/a.png","alt":"","title":null,"copyright":"© 2024","meta_data":{"alt":"x"}}}"#,
               #"<img src="https://example.com/a.png">"#),
        Golden("emoji", #"{"type":"emoji","attrs":{"name":"rocket","emoji":"🚀","fallbackImage":"https://cdn.example.com/rocket.png"}}"#,
               #"<span data-name="rocket" data-emoji="🚀">🚀</span>"#),
        Golden("unknown node renders its children",
               #"{"type":"details","content":[{"type":"detailsSummary","content":[\#(text("More"))]},\#(paragraph(text("Hidden")))]}"#,
               "More<p>Hidden</p>"),
        Golden("node without type renders nothing", #"{"content":[\#(paragraph(text("x")))]}"#, ""),
        Golden("text without text renders nothing", paragraph(#"{"type":"text"}"#), "<p></p>"),
        Golden("heading level 2", #"{"type":"heading","attrs":{"level":2},"content":[\#(text("Title"))]}"#, "<h2>Title</h2>"),
        Golden("heading without level is h1", #"{"type":"heading","content":[\#(text("Title"))]}"#, "<h1>Title</h1>"),
        Golden("heading level clamped to 6", #"{"type":"heading","attrs":{"level":9}}"#, "<h6></h6>"),
        Golden("heading level clamped to 1", #"{"type":"heading","attrs":{"level":0}}"#, "<h1></h1>"),
        Golden("heading level far beyond Int is clamped, not a crash", #"{"type":"heading","attrs":{"level":1e30}}"#, "<h6></h6>"),
        Golden("heading with alignment", #"{"type":"heading","attrs":{"level":3,"textAlign":"right"},"content":[\#(text("Heading 3"))]}"#,
               #"<h3 style="text-align: right;">Heading 3</h3>"#),
        Golden("paragraph with alignment", #"{"type":"paragraph","attrs":{"textAlign":"justify"},"content":[\#(text("Aligned"))]}"#,
               #"<p style="text-align: justify;">Aligned</p>"#),
        Golden("paragraph with null alignment", #"{"type":"paragraph","attrs":{"textAlign":null},"content":[\#(text("x"))]}"#, "<p>x</p>"),
        Golden("other paragraph attributes are not written",
               #"{"type":"paragraph","attrs":{"class":"x","onclick":"alert(1)","style":"color:red"},"content":[\#(text("x"))]}"#, "<p>x</p>"),
    ]

    @Test("each node type renders its golden HTML", arguments: nodes)
    func nodeKind(_ golden: Golden) {
        #expect(renderRichtext(golden.input).html == golden.expected)
    }

    static func tableCell(_ content: String, _ attrs: String = #""colspan":1,"rowspan":1,"colwidth":null"#, header: Bool = false) -> String {
        #"{"type":"\#(header ? "tableHeader" : "tableCell")","attrs":{\#(attrs)},"content":[\#(paragraph(text(content)))]}"#
    }

    static func row(_ cells: String...) -> String {
        #"{"type":"tableRow","content":[\#(cells.joined(separator: ","))]}"#
    }

    static func table(_ rows: String...) -> String {
        #"{"type":"table","content":[\#(rows.joined(separator: ","))]}"#
    }

    static let tables: [Golden] = [
        Golden("table with header and body",
               table(row(tableCell("H1", header: true), tableCell("H2", header: true)), row(tableCell("C1"), tableCell("C2"))),
               "<table><thead><tr><th><p>H1</p></th><th><p>H2</p></th></tr></thead><tbody><tr><td><p>C1</p></td><td><p>C2</p></td></tr></tbody></table>"),
        Golden("table without header rows", table(row(tableCell("A"), tableCell("B"))),
               "<table><tbody><tr><td><p>A</p></td><td><p>B</p></td></tr></tbody></table>"),
        Golden("header rows only count while leading",
               table(row(tableCell("A")), row(tableCell("H", header: true))),
               "<table><tbody><tr><td><p>A</p></td></tr><tr><th><p>H</p></th></tr></tbody></table>"),
        Golden("a row mixing header and data cells is body",
               table(row(tableCell("H", header: true), tableCell("D"))),
               "<table><tbody><tr><th><p>H</p></th><td><p>D</p></td></tr></tbody></table>"),
        Golden("colspan and rowspan when not 1", table(row(tableCell("Merged", #""colspan":2,"rowspan":2"#))),
               #"<table><tbody><tr><td colspan="2" rowspan="2"><p>Merged</p></td></tr></tbody></table>"#),
        Golden("colwidth and background colour as style",
               table(row(tableCell("Styled", #""colspan":1,"rowspan":1,"colwidth":[100],"backgroundColor":"rgb(204, 255, 204)""#), tableCell("Normal"))),
               #"<table><tbody><tr><td style="width: 100px; background-color: rgb(204, 255, 204);"><p>Styled</p></td><td><p>Normal</p></td></tr></tbody></table>"#),
        Golden("attributes then styles, each in content order",
               table(row(tableCell("cell2", ##""colspan":2,"rowspan":1,"colwidth":[200],"backgroundColor":"#F11F1F","textAlign":"center""##))),
               ##"<table><tbody><tr><td colspan="2" style="width: 200px; background-color: #F11F1F; text-align: center;"><p>cell2</p></td></tr></tbody></table>"##),
        Golden("header cell with width and background",
               table(row(tableCell("THead", ##""colspan":1,"rowspan":1,"colwidth":[100],"backgroundColor":"#F5F5F5""##, header: true))),
               ##"<table><thead><tr><th style="width: 100px; background-color: #F5F5F5;"><p>THead</p></th></tr></thead></table>"##),
        Golden("empty table", #"{"type":"table"}"#, "<table></table>"),
        Golden("complex table with link, superscript and emoji",
               table(
                   row(tableCell("THead", #""colspan":1,"rowspan":1,"colwidth":[100]"#, header: true)),
                   #"{"type":"tableRow","content":[{"type":"tableCell","attrs":{"colspan":1,"rowspan":1,"backgroundColor":"rgb(204, 255, 204)"},"content":[\#(paragraph(text("cell", "\(link("https://c.example/"))" + #",{"type":"superscript"}"#))),\#(paragraph(#"{"type":"emoji","attrs":{"fallbackImage":"https://cdn/foo.png","name":"plane","emoji":"✈️"}}"#))]}]}"#),
               #"<table><thead><tr><th style="width: 100px;"><p>THead</p></th></tr></thead><tbody><tr><td style="background-color: rgb(204, 255, 204);"><p><a href="https://c.example/"><sup>cell</sup></a></p><p><span data-name="plane" data-emoji="✈️">✈️</span></p></td></tr></tbody></table>"#),
    ]

    @Test("tables group leading header rows into thead", arguments: tables)
    func tableKind(_ golden: Golden) {
        #expect(renderRichtext(golden.input).html == golden.expected)
    }

    @Test("blok nodes render their body through the block renderer, located by field path")
    func blokNodes() {
        var seenPaths: [String] = []
        let renderer = RichtextRenderer(
            links: PageLinks(resolver: testResolver, pageURL: ""),
            story: "home",
            renderBlocks: { body, path, warnings in
                seenPaths.append(path)
                warnings.append(RenderWarning(kind: .brokenLink, story: "home", fieldPath: path, message: "from the block"))
                return body.values.compactMap { $0["component"]?.stringValue }.map { "<div class=\"\($0)\"></div>" }.joined()
            })
        let input = doc(
            paragraph(text("Before")),
            #"{"type":"blok","attrs":{"id":"x","body":[{"component":"button","_uid":"1"},{"component":"teaser","_uid":"2"}]}}"#,
            #"{"type":"blok","attrs":{"id":"y","body":[]}}"#,
            #"{"type":"blok","attrs":{"id":"z","body":null}}"#,
            paragraph(text("After")))
        var warnings: [RenderWarning] = []
        let html = renderer.render(json(input), fieldPath: "body[0].text", warnings: &warnings)
        #expect(html == #"<p>Before</p><div class="button"></div><div class="teaser"></div><p>After</p>"#)
        #expect(seenPaths == ["body[0].text.content[1].attrs.body"])
        #expect(warnings.map(\.fieldPath) == ["body[0].text.content[1].attrs.body"])
    }

    @Test("content that is not richtext renders as nothing")
    func notRichtext() {
        #expect(renderRichtext(#""just a string""#).html == "")
        #expect(renderRichtext("null").html == "")
        #expect(renderRichtext("42").html == "")
    }
}
