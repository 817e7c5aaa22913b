import StoryModel
import StoryRender
import Testing

/// One golden case: richtext JSON in, HTML out, rendered on the page `blog/post/`.
struct Golden: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var expected: String

    init(_ name: String, _ input: String, _ expected: String) {
        self.name = name
        self.input = input
        self.expected = expected
    }

    var testDescription: String { name }
}


extension RichtextBlocks {
    /// The blocks as trees.
    var values: [JSONValue] { tape.value(at: body).arrayValue ?? [] }
}

/// Renders richtext `input` on `page` with the test site; `blok` bodies render as
/// `<blok:component>` markers.
func renderRichtext(_ input: String, page: String = "blog/post/", fieldPath: String = "body[0].text") -> (html: String, warnings: [RenderWarning]) {
    let renderer = RichtextRenderer(
        links: PageLinks(resolver: testResolver, pageURL: page, fullSlug: "blog/post", baseURL: "https://site.example/"),
        story: "blog/post",
        renderBlocks: { body, _, _ in
            body.values.map { "<blok:\($0["component"]?.stringValue ?? "?")>" }.joined()
        })
    var warnings: [RenderWarning] = []
    let html = renderer.render(json(input), fieldPath: fieldPath, warnings: &warnings)
    return (html, warnings)
}

/// A text node with marks, as JSON.
func text(_ content: String, _ marks: String = "") -> String {
    marks.isEmpty ? #"{"type":"text","text":"\#(content)"}"# : #"{"type":"text","text":"\#(content)","marks":[\#(marks)]}"#
}

/// A link mark with Storyblok's usual attribute order.
func link(_ href: String, linktype: String = "url", target: String? = nil, anchor: String? = nil, uuid: String? = nil, custom: String? = nil) -> String {
    func value(_ string: String?) -> String { string.map { #""\#($0)""# } ?? "null" }
    var attrs = #""href":\#(value(href)),"uuid":\#(value(uuid)),"anchor":\#(value(anchor)),"target":\#(value(target)),"linktype":"\#(linktype)""#
    if let custom { attrs += #","custom":\#(custom)"# }
    return #"{"type":"link","attrs":{\#(attrs)}}"#
}

func paragraph(_ content: String...) -> String {
    #"{"type":"paragraph","content":[\#(content.joined(separator: ","))]}"#
}

func doc(_ content: String...) -> String {
    #"{"type":"doc","content":[\#(content.joined(separator: ","))]}"#
}
