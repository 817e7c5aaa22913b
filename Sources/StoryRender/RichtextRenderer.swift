import Mustache
import StoryModel

/// Renders a Storyblok richtext document (`{"type": "doc", ...}`) to HTML, following the markup
/// of `@storyblok/richtext` 5.x so that sites migrating to storysite keep their markup.
///
/// - Nodes: `<p>`, `<h1>`–`<h6>` (level clamped, default 1), `<ul>`, `<ol start>` (when `order`
///   is not 1), `<li>`, `<blockquote>`, `<pre><code class>`, `<br>`, `<hr>`,
///   `<img id src alt title>` (in that order; with ``images``, an asset CDN image also gets
///   `width height srcset sizes loading`), emoji as `<span data-name data-emoji>`, tables
///   with `<thead>` for the leading header rows and `colspan`/`rowspan` only when not 1.
///   `textAlign` becomes `style="text-align: ...;"`. Other attributes keep the order they have
///   in the content. Unknown node types render their children.
/// - Marks: the first mark is innermost; adjacent text runs with the same link share one `<a>`,
///   which is always the outermost element of its run. Unknown marks are ignored.
/// - Links: story links resolve through ``PageLinks`` (``StoryLink/lookupOrder``: UUID, numeric
///   id, then `href` as a slug), with `#anchor`; url links naming a page of the site (`/about`,
///   `../other`, the base URL) resolve the same way; email links get `mailto:`; `custom` attributes are kept (except event handlers);
///   `uuid`, `anchor` and `linktype` never appear. Script URLs are dropped and reported.
/// - `blok` nodes render their `attrs.body` through the injected block renderer.
///
/// Every text and attribute value is escaped; only known attributes are written.
public struct RichtextRenderer {
    /// Renders the blocks of a `blok` node; `fieldPath` locates them for warnings.
    public typealias BlockRenderer = (_ body: [JSONValue], _ fieldPath: String, _ warnings: inout [RenderWarning]) -> String

    /// Link resolution from the page being rendered.
    public let links: PageLinks
    /// The `full_slug` of the story being rendered, for warnings.
    public let story: String
    /// When set, images on the asset CDN get `width`, `height`, `srcset`, `sizes="100vw"` and
    /// `loading="lazy"` after their own attributes; nil leaves images as they are.
    public let images: ImageSettings?
    /// When set, each heading gets an `id` slugged from its text, unique within the outline,
    /// and is recorded in it; nil leaves headings without one.
    public let headings: HeadingOutline?
    fileprivate let renderBlocks: BlockRenderer

    /// Creates a renderer for one page of `story`.
    public init(
        links: PageLinks, story: String, images: ImageSettings? = nil, headings: HeadingOutline? = nil,
        renderBlocks: @escaping BlockRenderer
    ) {
        self.links = links
        self.story = story
        self.images = images
        self.headings = headings
        self.renderBlocks = renderBlocks
    }

    /// The HTML of `document` (a `doc` node, any single node, or an array of nodes; anything
    /// else renders as nothing). Problems found are appended to `warnings`, located under
    /// `fieldPath`.
    public func render(_ document: JSONValue, fieldPath: String, warnings: inout [RenderWarning]) -> String {
        var walk = Walk(renderer: self, fieldPath: fieldPath)
        switch document {
        case .array(let nodes): walk.children(nodes)
        case .object: walk.node(document)
        default: break
        }
        warnings += walk.warnings
        return walk.output.string
    }
}

/// One rendering pass: the output so far, where it is in the document, and what it found.
private struct Walk {
    let renderer: RichtextRenderer
    let fieldPath: String
    var output = HTMLBuffer(capacity: 2048)
    var warnings: [RenderWarning] = []
    /// Child indices from the document root to the node being rendered.
    var path: [Int] = []
    /// The index of the link mark being written, for warnings about it (`.marks[i]`).
    var markIndex: Int?

    init(renderer: RichtextRenderer, fieldPath: String) {
        self.renderer = renderer
        self.fieldPath = fieldPath
    }

    // MARK: Nodes

    mutating func children(_ nodes: [JSONValue]) {
        var index = 0
        var next = nodes.isEmpty ? nil : RichtextNode(nodes[0])
        while index < nodes.count {
            let current = next
            next = index + 1 < nodes.count ? RichtextNode(nodes[index + 1]) : nil
            guard let current else {
                index += 1
                continue
            }
            guard let link = current.link else {
                path.append(index)
                node(current)
                path.removeLast()
                index += 1
                continue
            }
            // Adjacent text runs with the same link share one <a>.
            path.append(index)
            openLink(link)
            path.removeLast()
            text(current)
            var end = index + 1
            while let candidate = next, let candidateLink = candidate.link, candidateLink.attrs == link.attrs {
                text(candidate)
                end += 1
                next = end < nodes.count ? RichtextNode(nodes[end]) : nil
            }
            output += "</a>"
            index = end
        }
    }

    mutating func node(_ value: JSONValue) {
        guard let node = RichtextNode(value) else { return }
        if let link = node.link {
            openLink(link)
            text(node)
            output += "</a>"
        } else {
            self.node(node)
        }
    }

    private mutating func node(_ node: RichtextNode) {
        guard let type = node.type else { return }
        let attrs = node.attrs
        let content = node.content
        switch type {
        case "text": text(node)
        case "paragraph": block("p", attrs, content)
        case "heading":
            // Clamped while still a Double: a level like 1e30 must not trap when made an Int.
            let level = attrs?["level"]?.numberValue.map { $0.isFinite ? Int(min(max($0, 1), 6)) : 1 } ?? 1
            let id = renderer.headings.map { $0.add(level: level, text: Self.plainText(content)) }
            block(headingTags[level - 1], attrs, content, id: id)
        case "blockquote": block("blockquote", attrs, content)
        case "bullet_list": block("ul", attrs, content)
        case "ordered_list": block("ol", attrs, content, start: attrs?["order"])
        case "list_item": block("li", attrs, content)
        case "code_block": codeBlock(attrs, content)
        case "hard_break": output += "<br>"
        case "horizontal_rule": output += "<hr>"
        case "image": image(attrs)
        case "emoji": emoji(attrs)
        case "table": table(content)
        case "tableRow": block("tr", attrs, content)
        case "tableCell": cell("td", attrs, content)
        case "tableHeader": cell("th", attrs, content)
        case "blok":
            guard let body = attrs?["body"]?.arrayValue, !body.isEmpty else { return }
            output += renderer.renderBlocks(body, currentPath + ".attrs.body", &warnings)
        default:
            children(content)  // "doc", and node types this renderer does not know
        }
    }

    private let headingTags = ["h1", "h2", "h3", "h4", "h5", "h6"]

    /// The text of `nodes` and their descendants (a hard break as a space, an emoji as its
    /// character), each run of white space one space, trimmed.
    static func plainText(_ nodes: [JSONValue]) -> String {
        var text = ""
        func collect(_ nodes: [JSONValue]) {
            for node in nodes {
                switch node["type"]?.stringValue {
                case "text": text += node["text"]?.stringValue ?? ""
                case "hard_break": text += " "
                case "emoji": text += node["attrs"]?["emoji"]?.stringValue ?? ""
                default: collect(node["content"]?.arrayValue ?? [])
                }
            }
        }
        collect(nodes)
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// A block element with an optional `id`, `start` and `text-align`, then its children.
    private mutating func block(_ tag: String, _ attrs: JSONObject?, _ content: [JSONValue], start: JSONValue? = nil, id: String? = nil) {
        output += "<"
        output += tag
        if let id { attribute("id", id) }
        if let start, let order = integer(start), order != 1 {
            attribute("start", String(order))
        }
        if let attrs, let align = attrs["textAlign"] {
            var style = ""
            addTextAlign(align, to: &style)
            if !style.isEmpty { attribute("style", style) }
        }
        output += ">"
        children(content)
        output.appendClosingTag(tag)
    }

    private mutating func codeBlock(_ attrs: JSONObject?, _ content: [JSONValue]) {
        output += "<pre><code"
        if let className = nonEmptyString(attrs?["class"]) {
            attribute("class", className)
        } else if let language = nonEmptyString(attrs?["language"]) {
            attribute("class", "language-" + language)
        }
        output += ">"
        children(content)
        output += "</code></pre>"
    }

    /// `<img id src alt title>`: in @storyblok/richtext's order whatever the content's, each
    /// only when not empty; the asset's metadata (`source`, `copyright`, `meta_data`) is dropped.
    private mutating func image(_ attrs: JSONObject?) {
        output += "<img"
        var source: String?
        for name in ["id", "src", "alt", "title"] {
            guard let value = attrs?[name].flatMap({ scalarString($0) }), !value.isEmpty else { continue }
            if name == "src" && !URLSafety.isSafeImageSource(value) {
                warn(.unsafeURL, "image source \(quoted(value)) refused: it could run script")
                continue
            }
            if name == "src" { source = value }
            attribute(name, value)
        }
        if let settings = renderer.images, let source, let image = ResponsiveImage(filename: source) {
            attribute("width", String(image.width))
            attribute("height", String(image.height))
            let focus = attrs?["focus"].flatMap { scalarString($0) }
            if let srcset = image.srcset(settings: settings, focus: focus) {
                attribute("srcset", srcset)
                attribute("sizes", "100vw")
            }
            attribute("loading", "lazy")
        }
        output += ">"
    }

    private mutating func emoji(_ attrs: JSONObject?) {
        output += "<span"
        var character = ""
        for entry in attrs?.entries ?? [] {
            guard let value = scalarString(entry.value), !value.isEmpty else { continue }
            switch entry.key {
            case "name": attribute("data-name", value)
            case "emoji":
                attribute("data-emoji", value)
                character = value
            default: continue
            }
        }
        output += ">"
        output.appendText(character)
        output += "</span>"
    }

    private mutating func table(_ rows: [JSONValue]) {
        output += "<table>"
        var headerEnd = 0
        while headerEnd < rows.count, isHeaderRow(rows[headerEnd]) { headerEnd += 1 }
        if headerEnd > 0 {
            output += "<thead>"
            rowRange(rows, 0..<headerEnd)
            output += "</thead>"
        }
        if headerEnd < rows.count {
            output += "<tbody>"
            rowRange(rows, headerEnd..<rows.count)
            output += "</tbody>"
        }
        output += "</table>"
    }

    private mutating func rowRange(_ rows: [JSONValue], _ range: Range<Int>) {
        for index in range {
            path.append(index)
            node(rows[index])
            path.removeLast()
        }
    }

    private func isHeaderRow(_ row: JSONValue) -> Bool {
        guard let cells = row["content"]?.arrayValue, !cells.isEmpty else { return false }
        return cells.allSatisfy { $0["type"]?.stringValue == "tableHeader" }
    }

    private mutating func cell(_ tag: String, _ attrs: JSONObject?, _ content: [JSONValue]) {
        output += "<"
        output += tag
        // Styles in @storyblok/richtext's order (width, background, alignment), whatever the content's.
        var widthStyle = "", backgroundStyle = "", alignStyle = ""
        for entry in attrs?.entries ?? [] {
            switch entry.key {
            case "colspan", "rowspan":
                if let span = integer(entry.value), span > 1 { attribute(entry.key, String(span)) }
            case "colwidth":
                let width = entry.value.arrayValue?.first?.numberValue ?? entry.value.numberValue
                if let width, width.isFinite, width > 0 { appendStyle("width", formatNumber(width) + "px", to: &widthStyle) }
            case "backgroundColor":
                addColor(entry.value, property: "background-color", to: &backgroundStyle)
            case "textAlign":
                addTextAlign(entry.value, to: &alignStyle)
            default:
                continue
            }
        }
        let style = [widthStyle, backgroundStyle, alignStyle].filter { !$0.isEmpty }.joined(separator: " ")
        if !style.isEmpty { attribute("style", style) }
        output += ">"
        children(content)
        output.appendClosingTag(tag)
    }

    // MARK: Text and marks

    /// A text node with its marks, the first innermost; the link mark is written by ``openLink(_:)``.
    private mutating func text(_ node: RichtextNode) {
        guard let text = node.text else { return }
        guard !node.marks.isEmpty else {
            output.appendText(text)
            return
        }
        var closing: [String] = []
        for mark in node.marks.reversed() {
            if let tag = openMark(mark) { closing.append(tag) }
        }
        output.appendText(text)
        for tag in closing.reversed() {
            output.appendClosingTag(tag)
        }
    }

    /// Writes the opening tag of a non-link mark and returns its tag name; nil (and nothing
    /// written) for links and unknown marks.
    private mutating func openMark(_ mark: JSONValue) -> String? {
        guard case .object(let mark) = mark else { return nil }
        let (type, attrs) = RichtextNode.typeAndAttrs(of: mark)
        guard let type, type != "link" else { return nil }
        let tag: String
        switch type {
        case "bold": tag = "strong"
        case "italic": tag = "em"
        case "strike": tag = "s"
        case "underline": tag = "u"
        case "code": tag = "code"
        case "superscript": tag = "sup"
        case "subscript": tag = "sub"
        case "highlight":
            output += "<mark"
            var style = ""
            if let color = attrs?["color"] { addColor(color, property: "background-color", to: &style) }
            if !style.isEmpty { attribute("style", style) }
            output += ">"
            return "mark"
        case "textStyle":
            output += "<span"
            var style = ""
            for entry in attrs?.entries ?? [] {
                switch entry.key {
                case "class", "id":
                    if let value = nonEmptyString(entry.value) { attribute(entry.key, value) }
                case "color":
                    addColor(entry.value, property: "color", to: &style)
                default:
                    continue
                }
            }
            if !style.isEmpty { attribute("style", style) }
            output += ">"
            return "span"
        case "anchor", "styled":
            output += "<span"
            let name = type == "anchor" ? "id" : "class"
            if let value = nonEmptyString(attrs?[name]) { attribute(name, value) }
            output += ">"
            return "span"
        default:
            return nil
        }
        output += "<"
        output += tag
        output += ">"
        return tag
    }

    /// The opening `<a>` of a run of text nodes that share `link`.
    private mutating func openLink(_ link: (attrs: JSONObject, index: Int)) {
        markIndex = link.index
        defer { markIndex = nil }
        output += "<a"
        var written: [String] = []
        if let href = linkHref(link.attrs) {
            attribute("href", href)
            written.append("href")
        }
        for entry in link.attrs.entries {
            switch entry.key {
            case "target", "rel", "title", "class":
                guard let value = nonEmptyString(entry.value), !written.contains(entry.key) else { continue }
                attribute(entry.key, value)
                written.append(entry.key)
            case "custom":
                customAttributes(entry.value, written: &written)
            default:
                continue
            }
        }
        output += ">"
    }

    /// The href of a link mark, or nil when it has none or its URL is refused.
    private mutating func linkHref(_ attrs: JSONObject) -> String? {
        var href = ""
        var anchor: String?
        var linktype = "url"
        var uuid: String?
        for entry in attrs.entries {  // one pass rather than a keyed lookup per attribute
            switch entry.key {
            case "href": href = entry.value.stringValue ?? ""
            case "anchor": anchor = nonEmptyString(entry.value)
            case "linktype": linktype = entry.value.stringValue ?? "url"
            case "uuid": uuid = nonEmptyString(entry.value)
            default: continue
            }
        }
        var resolved = href
        switch linktype {
        case "story":
            // By UUID first (the usual case, without building the link's whole lookup order).
            let page = uuid.flatMap { renderer.links.page(.uuid($0)) }
                ?? StoryLink(linkMarkAttributes: attrs).flatMap { renderer.links.page(for: $0) }
            if let page, let storyHref = renderer.links.href(to: page, anchor: anchor) {
                return storyHref
            }
            guard uuid != nil || !href.isEmpty else { return nil }
            let saved = anchor.map { href + "#" + $0 } ?? href
            let target = uuid.map { "story \($0)" } ?? "story \(quoted(href))"
            warn(.brokenLink, "broken link to \(target): no page for it; the link keeps its saved URL \(quoted(saved))")
            guard !href.isEmpty else { return nil }
            guard URLSafety.isSafeLink(saved) else { break }
            if href.contains("://") || href.hasPrefix("//") { return saved }
            // The saved slug, where its page would be.
            let slug = href.prefix { $0 != "#" && $0 != "?" }
            return renderer.links.href(toSiteURL: Story.normalizedSlug(String(slug)), anchor: anchor)
        case "email":
            var address = Substring(href)
            if address.lowercased().hasPrefix("mailto:") { address = address.dropFirst(7) }
            guard !address.isEmpty else { return nil }
            resolved = "mailto:" + address
        default:
            guard !href.isEmpty else { return nil }
            // A url link into the site (`/about`, `../other`, the base URL) goes to the page.
            if case .page(let pageHref) = renderer.links.sitePath(href) { return pageHref }
        }
        guard URLSafety.isSafeLink(resolved) else {
            warn(.unsafeURL, "link to \(quoted(resolved)) refused: it could run script; rendered without href")
            return nil
        }
        return resolved
    }

    /// The custom link attributes that are kept: they describe the link and cannot style the
    /// page, run script or clobber the document (`style`, `id`, `name`, `on…`, `formaction` can).
    private static let allowedCustomAttributes: Set<String> = [
        "rel", "title", "class", "hreflang", "download", "referrerpolicy", "type", "lang",
    ]

    /// A link's `custom` attributes (set in the editor): those allowed, `data-*` and `aria-*`,
    /// with valid names, not already written, and without script URLs.
    private mutating func customAttributes(_ value: JSONValue, written: inout [String]) {
        guard case .object(let custom) = value else { return }
        for entry in custom.entries {
            let name = entry.key.lowercased()
            guard let value = scalarString(entry.value) else { continue }
            let allowed = Self.allowedCustomAttributes.contains(name) || name.hasPrefix("data-") || name.hasPrefix("aria-")
            guard allowed, isValidAttributeName(name), !written.contains(name) else {
                warn(.unsafeAttribute, "link attribute \(quoted(entry.key)) refused")
                continue
            }
            guard URLSafety.isSafeLink(value) else {
                warn(.unsafeURL, "link attribute \(quoted(entry.key)) refused: its value \(quoted(value)) could run script")
                continue
            }
            attribute(name, value)
            written.append(name)
        }
    }

    private func isValidAttributeName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
        }
    }

    // MARK: Attributes and styles

    private mutating func attribute(_ name: String, _ value: String) {
        output.appendAttribute(name, value)
    }

    private mutating func addTextAlign(_ value: JSONValue, to style: inout String) {
        guard let align = nonEmptyString(value) else { return }
        switch align {
        case "left", "right", "center", "justify", "start", "end":
            appendStyle("text-align", align, to: &style)
        default:
            warn(.unsafeAttribute, "text alignment \(quoted(align)) refused")
        }
    }

    private mutating func addColor(_ value: JSONValue, property: String, to style: inout String) {
        guard let color = nonEmptyString(value) else { return }
        if CSSValue.isSafe(color) {
            appendStyle(property, color, to: &style)
        } else {
            warn(.unsafeAttribute, "\(property) \(quoted(color)) refused: not a plain CSS value")
        }
    }

    private func appendStyle(_ property: String, _ value: String, to style: inout String) {
        if !style.isEmpty { style += " " }
        style += property
        style += ": "
        style += value
        style += ";"
    }

    // MARK: Values

    private func nonEmptyString(_ value: JSONValue?) -> String? {
        guard case .string(let string)? = value, !string.isEmpty else { return nil }
        return string
    }

    /// A string, number or boolean as attribute text; nil for null, arrays and objects.
    private func scalarString(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string): return string
        case .number(let number): return formatNumber(number)
        case .bool(let bool): return bool ? "true" : "false"
        default: return nil
        }
    }

    /// A whole number held as a number or a numeric string.
    private func integer(_ value: JSONValue) -> Int? {
        guard let number = value.numberValue, number.isFinite, number == number.rounded(), abs(number) < 1e9 else { return nil }
        return Int(number)
    }

    private func formatNumber(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }

    private func quoted(_ text: String) -> String {
        "'" + text + "'"
    }

    // MARK: Warnings

    private var currentPath: String {
        var result = fieldPath
        for index in path { result += ".content[\(index)]" }
        if let markIndex { result += ".marks[\(markIndex)]" }
        return result
    }

    private mutating func warn(_ kind: RenderWarning.Kind, _ message: String) {
        warnings.append(RenderWarning(kind: kind, story: renderer.story, fieldPath: currentPath, message: message))
    }
}
