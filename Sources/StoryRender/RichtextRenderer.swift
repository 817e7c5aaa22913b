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
    public typealias BlockRenderer = (_ blocks: RichtextBlocks, _ fieldPath: String, _ warnings: inout [RenderWarning]) -> String

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
        render(JSONTape(encoding: document), at: 0, fieldPath: fieldPath, warnings: &warnings)
    }

    /// The HTML of the document at `index` of `tape`, read in place, as
    /// ``render(_:fieldPath:warnings:)`` renders a tree.
    public func render(_ tape: JSONTape, at index: Int, fieldPath: String, warnings: inout [RenderWarning]) -> String {
        tape.withReader { reader in
            var walk = Walk(renderer: self, tape: tape, reader: reader, fieldPath: fieldPath)
            switch reader.kind(at: index) {
            case .array: walk.children(index)
            case .object: walk.node(at: index)
            default: break
            }
            warnings += walk.warnings
            return walk.output.string
        }
    }
}

/// The blocks of a `blok` node's `attrs.body`: the array at `body` of `tape`, the tape of the
/// document being rendered, so that they are prepared from it in place.
public struct RichtextBlocks {
    public let tape: JSONTape
    public let body: Int
}

/// One rendering pass over a tape: the output so far, where it is in the document, and what it
/// found. Valid only while the reader it was made with is.
private struct Walk {
    typealias Reader = JSONTape.Reader

    let renderer: RichtextRenderer
    let tape: JSONTape
    let reader: JSONTape.Reader
    let fieldPath: String
    var output = HTMLBuffer(capacity: 2048)
    var warnings: [RenderWarning] = []
    /// Child indices from the document root to the node being rendered.
    var path: [Int] = []
    /// The index of the link mark being written, for warnings about it (`.marks[i]`).
    var markIndex: Int?

    init(renderer: RichtextRenderer, tape: JSONTape, reader: JSONTape.Reader, fieldPath: String) {
        self.renderer = renderer
        self.tape = tape
        self.reader = reader
        self.fieldPath = fieldPath
    }

    // MARK: Nodes

    /// The nodes of the array at `array`, if any.
    mutating func children(_ array: Int?) {
        guard let array else { return }
        let count = reader.count(at: array)
        // The element at `index`, and the one after it, read ahead to join runs of one link.
        var index = 0
        var element = array + 1
        var next = count == 0 ? nil : RichtextNode(reader, at: element)
        while index < count {
            let current = next
            let following = index + 1 < count ? reader.next(after: element) : element
            next = index + 1 < count ? RichtextNode(reader, at: following) : nil
            guard let current else {
                index += 1
                element = following
                continue
            }
            guard let link = current.link else {
                path.append(index)
                node(current)
                path.removeLast()
                index += 1
                element = following
                continue
            }
            // Adjacent text runs with the same link share one <a>.
            path.append(index)
            openLink(link)
            path.removeLast()
            text(current)
            var end = index + 1
            element = following
            while let candidate = next, let candidateLink = candidate.link, sameAttributes(candidateLink.attrs, link.attrs) {
                text(candidate)
                end += 1
                if end < count { element = reader.next(after: element) }
                next = end < count ? RichtextNode(reader, at: element) : nil
            }
            output += "</a>"
            index = end
        }
    }

    mutating func node(at index: Int) {
        guard let node = RichtextNode(reader, at: index) else { return }
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
        case .text: text(node)
        case .paragraph: block("p", attrs, content)
        case .heading:
            // Clamped while still a Double: a level like 1e30 must not trap when made an Int.
            let level = attribute("level", of: attrs).flatMap(reader.numberValue(at:)).map { $0.isFinite ? Int(min(max($0, 1), 6)) : 1 } ?? 1
            let id = renderer.headings.map { $0.add(level: level, text: plainText(content)) }
            block(headingTags[level - 1], attrs, content, id: id)
        case .blockquote: block("blockquote", attrs, content)
        case .bulletList: block("ul", attrs, content)
        case .orderedList: block("ol", attrs, content, start: attribute("order", of: attrs))
        case .listItem: block("li", attrs, content)
        case .codeBlock: codeBlock(attrs, content)
        case .hardBreak: output += "<br>"
        case .horizontalRule: output += "<hr>"
        case .image: image(attrs)
        case .emoji: emoji(attrs)
        case .table: table(content)
        case .tableRow: block("tr", attrs, content)
        case .tableCell: cell("td", attrs, content)
        case .tableHeader: cell("th", attrs, content)
        case .blok:
            guard let body = attribute("body", of: attrs), reader.kind(at: body) == .array, reader.count(at: body) > 0 else { return }
            output += renderer.renderBlocks(RichtextBlocks(tape: tape, body: body), currentPath + ".attrs.body", &warnings)
        case .other:
            children(content)  // "doc", and node types this renderer does not know
        }
    }

    private let headingTags = ["h1", "h2", "h3", "h4", "h5", "h6"]

    /// The text of the nodes of the array at `nodes` and their descendants (a hard break as a
    /// space, an emoji as its character), each run of white space one space, trimmed.
    private func plainText(_ nodes: Int?) -> String {
        var text = ""
        func collect(_ nodes: Int?) {
            guard let nodes else { return }
            reader.forEachElement(ofArray: nodes) { _, node in
                let type = reader.value(forKey: "type", inObject: node)
                if let type, reader.isString(at: type, equalTo: "text") {
                    text += reader.value(forKey: "text", inObject: node).flatMap(reader.string(at:)) ?? ""
                } else if let type, reader.isString(at: type, equalTo: "hard_break") {
                    text += " "
                } else if let type, reader.isString(at: type, equalTo: "emoji") {
                    text += attribute("emoji", of: reader.value(forKey: "attrs", inObject: node)).flatMap(reader.string(at:)) ?? ""
                } else {
                    collect(reader.value(forKey: "content", inObject: node).flatMap { reader.kind(at: $0) == .array ? $0 : nil })
                }
            }
        }
        collect(nodes)
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// A block element with an optional `id`, `start` and `text-align`, then its children.
    private mutating func block(_ tag: String, _ attrs: Int?, _ content: Int?, start: Int? = nil, id: String? = nil) {
        output += "<"
        output += tag
        if let id { attribute("id", id) }
        if let start, let order = integer(start), order != 1 {
            attribute("start", String(order))
        }
        if let align = attribute("textAlign", of: attrs) {
            var style = ""
            addTextAlign(align, to: &style)
            if !style.isEmpty { attribute("style", style) }
        }
        output += ">"
        children(content)
        output.appendClosingTag(tag)
    }

    private mutating func codeBlock(_ attrs: Int?, _ content: Int?) {
        output += "<pre><code"
        if let className = nonEmptyString(attribute("class", of: attrs)) {
            attribute("class", className)
        } else if let language = nonEmptyString(attribute("language", of: attrs)) {
            attribute("class", "language-" + language)
        }
        output += ">"
        children(content)
        output += "</code></pre>"
    }

    /// `<img id src alt title>`: in @storyblok/richtext's order whatever the content's, each
    /// only when not empty; the asset's metadata (`source`, `copyright`, `meta_data`) is dropped.
    private mutating func image(_ attrs: Int?) {
        output += "<img"
        var source: String?
        for name in ["id", "src", "alt", "title"] {
            guard let value = attribute(name, of: attrs).flatMap(scalarString), !value.isEmpty else { continue }
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
            let focus = attribute("focus", of: attrs).flatMap(scalarString)
            if let srcset = image.srcset(settings: settings, focus: focus) {
                attribute("srcset", srcset)
                attribute("sizes", "100vw")
            }
            attribute("loading", "lazy")
        }
        output += ">"
    }

    private mutating func emoji(_ attrs: Int?) {
        output += "<span"
        var character = ""
        Self.forEachAttribute(reader, of: attrs) { name, value in
            guard let value = scalarString(value), !value.isEmpty else { return }
            if Reader.equal(name, "name") {
                attribute("data-name", value)
            } else if Reader.equal(name, "emoji") {
                attribute("data-emoji", value)
                character = value
            }
        }
        output += ">"
        output.appendText(character)
        output += "</span>"
    }

    private mutating func table(_ rows: Int?) {
        output += "<table>"
        var elements: [Int] = []
        if let rows { reader.forEachElement(ofArray: rows) { _, row in elements.append(row) } }
        var headerEnd = 0
        while headerEnd < elements.count, isHeaderRow(elements[headerEnd]) { headerEnd += 1 }
        if headerEnd > 0 {
            output += "<thead>"
            rowRange(elements, 0..<headerEnd)
            output += "</thead>"
        }
        if headerEnd < elements.count {
            output += "<tbody>"
            rowRange(elements, headerEnd..<elements.count)
            output += "</tbody>"
        }
        output += "</table>"
    }

    private mutating func rowRange(_ rows: [Int], _ range: Range<Int>) {
        for index in range {
            path.append(index)
            node(at: rows[index])
            path.removeLast()
        }
    }

    private func isHeaderRow(_ row: Int) -> Bool {
        guard let cells = reader.value(forKey: "content", inObject: row), reader.kind(at: cells) == .array, reader.count(at: cells) > 0
        else { return false }
        var allHeaders = true
        reader.forEachElement(ofArray: cells) { _, cell in
            guard allHeaders else { return }
            let type = reader.value(forKey: "type", inObject: cell)
            allHeaders = type.map { reader.isString(at: $0, equalTo: "tableHeader") } ?? false
        }
        return allHeaders
    }

    private mutating func cell(_ tag: String, _ attrs: Int?, _ content: Int?) {
        output += "<"
        output += tag
        // Styles in @storyblok/richtext's order (width, background, alignment), whatever the content's.
        var widthStyle = "", backgroundStyle = "", alignStyle = ""
        Self.forEachAttribute(reader, of: attrs) { name, value in
            if Reader.equal(name, "colspan") || Reader.equal(name, "rowspan") {
                if let span = integer(value), span > 1 { attribute(Self.name(name), String(span)) }
            } else if Reader.equal(name, "colwidth") {
                var width = reader.numberValue(at: value)
                if reader.kind(at: value) == .array {
                    width = reader.count(at: value) > 0 ? reader.numberValue(at: value + 1) : nil
                }
                if let width, width.isFinite, width > 0 { appendStyle("width", formatNumber(width) + "px", to: &widthStyle) }
            } else if Reader.equal(name, "backgroundColor") {
                addColor(value, property: "background-color", to: &backgroundStyle)
            } else if Reader.equal(name, "textAlign") {
                addTextAlign(value, to: &alignStyle)
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
        guard let textIndex = node.text, let text = reader.string(at: textIndex) else { return }
        guard let marks = node.marks, reader.count(at: marks) > 0 else {
            output.appendText(text)
            return
        }
        var elements: [Int] = []
        elements.reserveCapacity(reader.count(at: marks))
        reader.forEachElement(ofArray: marks) { _, mark in elements.append(mark) }
        var closing: [String] = []
        for mark in elements.reversed() {
            if let tag = openMark(mark) { closing.append(tag) }
        }
        output.appendText(text)
        for tag in closing.reversed() {
            output.appendClosingTag(tag)
        }
    }

    /// Writes the opening tag of the non-link mark at `mark` and returns its tag name; nil (and
    /// nothing written) for links and unknown marks.
    private mutating func openMark(_ mark: Int) -> String? {
        guard reader.kind(at: mark) == .object else { return nil }
        let (typeIndex, attrs) = RichtextNode.typeAndAttrs(reader, of: mark)
        guard let typeIndex, let type = reader.string(at: typeIndex), type != "link" else { return nil }
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
            if let color = attribute("color", of: attrs) { addColor(color, property: "background-color", to: &style) }
            if !style.isEmpty { attribute("style", style) }
            output += ">"
            return "mark"
        case "textStyle":
            output += "<span"
            var style = ""
            Self.forEachAttribute(reader, of: attrs) { name, value in
                if Reader.equal(name, "class") || Reader.equal(name, "id") {
                    if let value = nonEmptyString(value) { attribute(Self.name(name), value) }
                } else if Reader.equal(name, "color") {
                    addColor(value, property: "color", to: &style)
                }
            }
            if !style.isEmpty { attribute("style", style) }
            output += ">"
            return "span"
        case "anchor", "styled":
            output += "<span"
            let name = type == "anchor" ? "id" : "class"
            if let value = nonEmptyString(attribute(name, of: attrs)) { attribute(name, value) }
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
    private mutating func openLink(_ link: RichtextNode.Link) {
        markIndex = link.index
        defer { markIndex = nil }
        output += "<a"
        var written: [String] = []
        if let href = linkHref(link.attrs) {
            attribute("href", href)
            written.append("href")
        }
        Self.forEachAttribute(reader, of: link.attrs) { name, value in
            if Reader.equal(name, "target") || Reader.equal(name, "rel") || Reader.equal(name, "title") || Reader.equal(name, "class") {
                let name = Self.name(name)
                guard let value = nonEmptyString(value), !written.contains(name) else { return }
                attribute(name, value)
                written.append(name)
            } else if Reader.equal(name, "custom") {
                customAttributes(value, written: &written)
            }
        }
        output += ">"
    }

    /// The href of a link mark with the attributes at `attrs`, or nil when it has none or its URL is refused.
    private mutating func linkHref(_ attrs: Int?) -> String? {
        var href = ""
        var anchor: String?
        var linktype = "url"
        var uuid: String?
        Self.forEachAttribute(reader, of: attrs) { name, value in  // one pass rather than a keyed lookup per attribute
            if Reader.equal(name, "href") {
                href = reader.string(at: value) ?? ""
            } else if Reader.equal(name, "anchor") {
                anchor = nonEmptyString(value)
            } else if Reader.equal(name, "linktype") {
                linktype = reader.string(at: value) ?? "url"
            } else if Reader.equal(name, "uuid") {
                uuid = nonEmptyString(value)
            }
        }
        var resolved = href
        switch linktype {
        case "story":
            // By UUID first (the usual case, without building the link's whole lookup order).
            let linked = uuid.flatMap { renderer.links.linkedURL(.uuid($0)) }
                ?? attrs.flatMap { StoryLink(linkMarkAttributes: $0, of: tape, reader) }.flatMap { renderer.links.linkedURL(for: $0) }
            if let linked, let storyHref = renderer.links.href(to: linked, anchor: anchor) {
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
    private mutating func customAttributes(_ custom: Int, written: inout [String]) {
        guard reader.kind(at: custom) == .object else { return }
        Self.forEachAttribute(reader, of: custom) { keyBytes, value in
            let key = Self.name(keyBytes)
            let name = key.lowercased()
            guard let value = scalarString(value) else { return }
            let allowed = Self.allowedCustomAttributes.contains(name) || name.hasPrefix("data-") || name.hasPrefix("aria-")
            guard allowed, isValidAttributeName(name), !written.contains(name) else {
                warn(.unsafeAttribute, "link attribute \(quoted(key)) refused")
                return
            }
            guard URLSafety.isSafeLink(value) else {
                warn(.unsafeURL, "link attribute \(quoted(key)) refused: its value \(quoted(value)) could run script")
                return
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

    private mutating func addTextAlign(_ value: Int, to style: inout String) {
        guard let align = nonEmptyString(value) else { return }
        switch align {
        case "left", "right", "center", "justify", "start", "end":
            appendStyle("text-align", align, to: &style)
        default:
            warn(.unsafeAttribute, "text alignment \(quoted(align)) refused")
        }
    }

    private mutating func addColor(_ value: Int, property: String, to style: inout String) {
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

    /// The value of `name` in the attributes at `attrs`, if any.
    private func attribute(_ name: StaticString, of attrs: Int?) -> Int? {
        attrs.flatMap { reader.value(forKey: name, inObject: $0) }
    }

    /// The value of `name` in the attributes at `attrs`, for a name chosen as the build runs.
    private func attribute(_ name: String, of attrs: Int?) -> Int? {
        attrs.flatMap { reader.value(forKey: name, inObject: $0) }
    }

    /// Calls `body` with the name's bytes and the value of each attribute at `attrs`, in
    /// document order. Static, so that `body` may change the walk while it runs.
    private static func forEachAttribute(
        _ reader: JSONTape.Reader, of attrs: Int?, _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: Int) -> Void
    ) {
        guard let attrs else { return }
        reader.forEachEntry(ofObject: attrs) { key, value in
            body(reader.bytes(at: key), value)
            return true
        }
    }

    private static func name(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Whether two link marks' attributes are the same, as their trees would compare: none
    /// reads as an empty object.
    private func sameAttributes(_ left: Int?, _ right: Int?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (let object?, nil), (nil, let object?): return reader.count(at: object) == 0
        case (let left?, let right?): return reader.valuesEqual(left, right)
        }
    }

    private func nonEmptyString(_ value: Int?) -> String? {
        guard let value, let string = reader.string(at: value), !string.isEmpty else { return nil }
        return string
    }

    /// A string, number or boolean as attribute text; nil for null, arrays and objects.
    private func scalarString(_ value: Int) -> String? {
        switch reader.kind(at: value) {
        case .string: return reader.string(at: value)
        case .number: return reader.number(at: value).map(formatNumber)
        case .true: return "true"
        case .false: return "false"
        default: return nil
        }
    }

    /// A whole number held as a number or a numeric string.
    private func integer(_ value: Int) -> Int? {
        guard let number = reader.numberValue(at: value), number.isFinite, number == number.rounded(), abs(number) < 1e9 else { return nil }
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
