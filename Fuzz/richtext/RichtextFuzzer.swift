import StoryModel
import StoryRender

/// The richtext renderer on any JSON: the input's root and every `{"type": "doc"}` inside it
/// are rendered on a page of a small site, and the HTML must hold only the elements richtext
/// makes, with quoted attributes, no event handlers and no script URLs (``RenderedHTML``).
/// Input that is not JSON is skipped: the JSON parser has its own target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRichtext(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let document = try? JSONValue(parsing: inputBytes(data, size)) else { return 0 }
    var documents = [document]
    collectDocuments(in: document, into: &documents)
    // Half of the inputs with responsive images and heading ids, half without.
    let withOptions = size % 2 == 0
    for document in documents {
        let renderer = RichtextRenderer(
            links: PageLinks(resolver: FuzzSite(), pageURL: "blog/post/", fullSlug: "blog/post", baseURL: "https://www.example.com/"),
            story: "blog/post", images: withOptions ? ImageSettings(richtext: true) : nil,
            headings: withOptions ? HeadingOutline() : nil,
            renderBlocks: { blocks, _, _ in "<div class=\"blocks\" data-count=\"\(blocks.tape.withReader { $0.count(at: blocks.body) })\"></div>" })
        var warnings: [RenderWarning] = []
        let html = renderer.render(document, fieldPath: "body[0].text", warnings: &warnings)
        RenderedHTML.check(html, allowedElements: richtextElements)
    }
    return 0
}

/// What richtext writes, and the placeholder the fuzzer's block renderer writes.
private let richtextElements: Set<String> = [
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "pre", "code", "br", "hr", "img",
    "span", "table", "thead", "tbody", "tr", "td", "th", "strong", "em", "s", "u", "sup", "sub", "mark", "a", "div",
]

/// The documents nested anywhere in `value`, at most 16.
private func collectDocuments(in value: JSONValue, into documents: inout [JSONValue]) {
    guard documents.count < 16 else { return }
    switch value {
    case .object(let object):
        for entry in object.entries {
            if case .object(let inner) = entry.value, inner["type"]?.stringValue == "doc" { documents.append(entry.value) }
            collectDocuments(in: entry.value, into: &documents)
        }
    case .array(let values):
        for value in values { collectDocuments(in: value, into: &documents) }
    default:
        break
    }
}

/// A site of five stories with pretty URLs, one of them without a page.
private struct FuzzSite: LinkResolving {
    static let stories: [Story] = [
        ("uuid-home", "home", 1), ("uuid-about", "about", 2), ("uuid-blog", "blog/", 3), ("uuid-post", "blog/post", 4),
        ("uuid-global", "global", 5),
    ].map { uuid, slug, id in
        try! Story(json: JSONObject([
            "uuid": .string(uuid), "full_slug": .string(slug), "name": .string(slug), "id": .number(Double(id)),
            "content": .object(JSONObject(["component": .string("page")])),
        ]))
    }

    func story(for reference: StoryReference) -> Story? {
        switch reference {
        case .uuid(let uuid): return Self.stories.first { $0.uuid == uuid }
        case .id(let id): return Self.stories.first { $0.id == id }
        case .slug(let slug):
            let wanted = Story.normalizedSlug(slug)
            return Self.stories.first { $0.fullSlug == wanted || $0.fullSlug == wanted + "/" }
        }
    }

    func pageURL(of story: Story) -> String? {
        switch story.fullSlug {
        case "global": return nil
        case "home": return ""
        default: return story.fullSlug.hasSuffix("/") ? story.fullSlug : story.fullSlug + "/"
        }
    }

    func tagPageURL(of tag: String) -> String? { "tags/\(tag)/" }
}
