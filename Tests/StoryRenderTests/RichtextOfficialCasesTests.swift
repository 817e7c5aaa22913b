import StoryRender
import Testing

/// Cases from @storyblok/richtext's own test suite (storyblok/monoblok, packages/richtext,
/// `src/richtext.test.ts`): the same inputs and the expected HTML strings it checks, written
/// here as data. Cases for options storysite does not have (`keyedResolvers`, `optimizeImages`,
/// framework render functions) are checked without the option where the suite has a plain one.
@Suite("Richtext matches @storyblok/richtext's own test cases")
struct RichtextOfficialCasesTests {

    static func tableCell(_ text: String, attrs: String = #""colspan":1,"rowspan":1,"colwidth":null"#, type: String = "tableCell") -> String {
        #"{"type":"\#(type)","attrs":{\#(attrs)},"content":[\#(paragraph(RichtextOfficialCasesTests.plain(text)))]}"#
    }

    static func plain(_ string: String) -> String { #"{"type":"text","text":"\#(string)"}"# }

    static func row(_ cells: String...) -> String { #"{"type":"tableRow","content":[\#(cells.joined(separator: ","))]}"# }

    static func table(_ rows: String...) -> String { #"{"type":"table","content":[\#(rows.joined(separator: ","))]}"# }

    static let cases: [Golden] = [
        // document
        Golden("document renders no wrapper tag", doc(paragraph(plain("Hey ")), doc(paragraph(plain("nested")))),
               "<p>Hey </p><p>nested</p>"),
        // block types
        Golden("paragraph", paragraph(plain("Hello, world!")), "<p>Hello, world!</p>"),
        Golden("heading level 2", #"{"type":"heading","attrs":{"level":2},"content":[\#(plain("Headline 2"))]}"#, "<h2>Headline 2</h2>"),
        Golden("bullet list", #"{"type":"bullet_list","content":[{"type":"list_item","content":[\#(plain("Item 1"))]},{"type":"list_item","content":[\#(plain("Item 2"))]}]}"#,
               "<ul><li>Item 1</li><li>Item 2</li></ul>"),
        Golden("image with attrs, metadata dropped",
               #"{"type":"image","attrs":{"src":"https://example.com/image.jpg","alt":"An image","copyright":"© Storyblok","source":"Storyblok","title":"An image","meta_data":{"alt":"An image","copyright":"© Storyblok","source":"Storyblok"}}}"#,
               #"<img src="https://example.com/image.jpg" alt="An image" title="An image">"#),
        Golden("image with src and alt", #"{"type":"image","attrs":{"src":"https://example.com/image.jpg","alt":"An image"}}"#,
               #"<img src="https://example.com/image.jpg" alt="An image">"#),
        Golden("table", table(row(tableCell("Cell 1"), tableCell("Cell 2"))),
               "<table><tbody><tr><td><p>Cell 1</p></td><td><p>Cell 2</p></td></tr></tbody></table>"),
        Golden("table with colspan and rowspan",
               table(row(tableCell("Merged Cell", attrs: #""colspan":2,"rowspan":1,"colwidth":null"#)), row(tableCell("Cell 1"), tableCell("Cell 2"))),
               #"<table><tbody><tr><td colspan="2"><p>Merged Cell</p></td></tr><tr><td><p>Cell 1</p></td><td><p>Cell 2</p></td></tr></tbody></table>"#),
        Golden("table with colwidth", table(row(tableCell("Fixed Width Cell", attrs: #""colspan":1,"rowspan":1,"colwidth":200"#))),
               #"<table><tbody><tr><td style="width: 200px;"><p>Fixed Width Cell</p></td></tr></tbody></table>"#),
        Golden("table cell with background colour",
               table(row(tableCell("Colored Cell", attrs: ##""colspan":1,"rowspan":1,"colwidth":null,"backgroundColor":"#F11F1F""##))),
               ##"<table><tbody><tr><td style="background-color: #F11F1F;"><p>Colored Cell</p></td></tr></tbody></table>"##),
        Golden("table cell with width and background colour",
               table(row(tableCell("Styled Cell", attrs: ##""colspan":1,"rowspan":1,"colwidth":200,"backgroundColor":"#F11F1F""##))),
               ##"<table><tbody><tr><td style="width: 200px; background-color: #F11F1F;"><p>Styled Cell</p></td></tr></tbody></table>"##),
        Golden("table with header cells",
               table(row(tableCell("Header Cell", attrs: ##""colspan":1,"rowspan":1,"colwidth":null,"backgroundColor":"#F5F5F5""##, type: "tableHeader"),
                         tableCell("Another Header", type: "tableHeader")),
                     row(tableCell("Regular Cell"), tableCell("Another Cell"))),
               ##"<table><thead><tr><th style="background-color: #F5F5F5;"><p>Header Cell</p></th><th><p>Another Header</p></th></tr></thead><tbody><tr><td><p>Regular Cell</p></td><td><p>Another Cell</p></td></tr></tbody></table>"##),
        // marks
        Golden("bold", text("Bold", #"{"type":"bold"}"#), "<strong>Bold</strong>"),
        Golden("italic", text("Italic", #"{"type":"italic"}"#), "<em>Italic</em>"),
        Golden("underline", text("Underline", #"{"type":"underline"}"#), "<u>Underline</u>"),
        Golden("strike", text("Strike", #"{"type":"strike"}"#), "<s>Strike</s>"),
        Golden("code", text("Code", #"{"type":"code"}"#), "<code>Code</code>"),
        Golden("superscript", text("Superscript", #"{"type":"superscript"}"#), "<sup>Superscript</sup>"),
        Golden("subscript", text("Subscript", #"{"type":"subscript"}"#), "<sub>Subscript</sub>"),
        Golden("highlight", text("Highlight", #"{"type":"highlight"}"#), "<mark>Highlight</mark>"),
        Golden("bold and italic, first mark innermost", paragraph(text("Styled text", #"{"type":"bold"},{"type":"italic"}"#)),
               "<p><em><strong>Styled text</strong></em></p>"),
        Golden("anchor mark is a span with id", text("Anchored text", #"{"type":"anchor","attrs":{"id":"my-section"}}"#),
               #"<span id="my-section">Anchored text</span>"#),
        // code block
        Golden("code block", #"{"type":"code_block","content":[\#(plain("const x = 42;"))]}"#, "<pre><code>const x = 42;</code></pre>"),
        Golden("code block language is a class on code", #"{"type":"code_block","attrs":{"language":"js"},"content":[\#(plain("const x = 1;"))]}"#,
               #"<pre><code class="language-js">const x = 1;</code></pre>"#),
        // links
        Golden("external link", text("External link", #"{"type":"link","attrs":{"href":"https://example.com","target":"_blank","linktype":"url"}}"#),
               #"<a href="https://example.com" target="_blank">External link</a>"#),
        Golden("email link", text("jane@example.com", #"{"type":"link","attrs":{"href":"jane@example.com","linktype":"email"}}"#),
               #"<a href="mailto:jane@example.com">jane@example.com</a>"#),
        Golden("email link already with mailto:", text("hey@hoe.dev", #"{"type":"link","attrs":{"href":"mailto:hey@hoe.dev","linktype":"email"}}"#),
               #"<a href="mailto:hey@hoe.dev">hey@hoe.dev</a>"#),
        Golden("asset link", text("Asset link", #"{"type":"link","attrs":{"href":"https://a.storyblok.com/f/67536/400x303/ccbe9ca7b3/nuxt-logo.png","linktype":"asset"}}"#),
               #"<a href="https://a.storyblok.com/f/67536/400x303/ccbe9ca7b3/nuxt-logo.png">Asset link</a>"#),
        Golden("link without href", text("Link text", #"{"type":"link","attrs":{"linktype":"url"}}"#), "<a>Link text</a>"),
        Golden("link with empty href", text("Link text", #"{"type":"link","attrs":{"href":"","linktype":"url"}}"#), "<a>Link text</a>"),
        Golden("link without linktype is a url link", text("Link text", #"{"type":"link","attrs":{"href":"https://url.com"}}"#),
               #"<a href="https://url.com">Link text</a>"#),
        Golden("link with custom attributes", paragraph(text("Click me", #"{"type":"link","attrs":{"href":"https://example.com","custom":{"data-custom":"foo"}}}"#)),
               #"<p><a href="https://example.com" data-custom="foo">Click me</a></p>"#),
        // text alignment
        Golden("paragraph aligned right", #"{"type":"paragraph","attrs":{"textAlign":"right"},"content":[\#(plain("Right aligned text"))]}"#,
               #"<p style="text-align: right;">Right aligned text</p>"#),
        Golden("paragraphs with different alignments",
               doc(#"{"type":"paragraph","attrs":{"textAlign":"right"},"content":[\#(plain("Right aligned text"))]}"#,
                   #"{"type":"paragraph","attrs":{"textAlign":"center"},"content":[\#(plain("Center aligned text"))]}"#,
                   #"{"type":"paragraph","attrs":{"textAlign":"left"},"content":[\#(plain("Left aligned text"))]}"#),
               #"<p style="text-align: right;">Right aligned text</p><p style="text-align: center;">Center aligned text</p><p style="text-align: left;">Left aligned text</p>"#),
        Golden("heading aligned centre", #"{"type":"heading","attrs":{"level":2,"textAlign":"center"},"content":[\#(plain("Centered Heading"))]}"#,
               #"<h2 style="text-align: center;">Centered Heading</h2>"#),
        Golden("list item aligned right",
               #"{"type":"bullet_list","content":[{"type":"list_item","attrs":{"textAlign":"right"},"content":[\#(paragraph(plain("Right aligned list item")))]}]}"#,
               #"<ul><li style="text-align: right;"><p>Right aligned list item</p></li></ul>"#),
        Golden("table cell aligned centre", table(row(tableCell("Centered cell", attrs: #""textAlign":"center""#))),
               #"<table><tbody><tr><td style="text-align: center;"><p>Centered cell</p></td></tr></tbody></table>"#),
        Golden("table cell styles in the order width, background, alignment",
               table(row(tableCell("Styled cell", attrs: ##""textAlign":"center","backgroundColor":"#F5F5F5","colwidth":200"##))),
               ##"<table><tbody><tr><td style="width: 200px; background-color: #F5F5F5; text-align: center;"><p>Styled cell</p></td></tr></tbody></table>"##),
        Golden("empty paragraph aligned centre", #"{"type":"paragraph","attrs":{"textAlign":"center"},"content":[]}"#,
               #"<p style="text-align: center;"></p>"#),
        Golden("aligned paragraph with mixed content",
               ##"{"type":"paragraph","attrs":{"textAlign":"right"},"content":[\##(plain("Text with ")),\##(text("bold", #"{"type":"bold"}"#)),\##(plain(" and ")),\##(text("link", ##"{"type":"link","attrs":{"href":"#"}}"##))]}"##,
               ##"<p style="text-align: right;">Text with <strong>bold</strong> and <a href="#">link</a></p>"##),
    ]

    @Test("each official case renders the official HTML", arguments: cases)
    func officialCase(_ golden: Golden) {
        #expect(renderRichtext(golden.input).html == golden.expected)
    }
}
