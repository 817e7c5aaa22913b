import StoryModel

/// Finds every story reference in a story's content, at any depth of nested blocks, in
/// document order, reading each value as ``FieldKind`` and ``ContentKind`` classify it (as the
/// render does):
/// - multilinks with `linktype: "story"` (target by `id`, falling back to `cached_url`), and
///   `linktype: "url"` multilinks whose URL is a site path or starts with the base URL;
/// - a richtext text node's (first) link mark with `linktype: "story"` (`attrs.uuid`, falling
///   back to `attrs.href`) or a url link into the site, and the blocks inside richtext `blok`
///   nodes (`attrs.body`);
/// - relations: a block field holding a UUID-shaped string, or an array of nothing but those,
///   or a resolved relation (a whole story object in its place);
/// - Markdown links in any string field whose target is a site path (see ``SitePathReference``).
///
/// Assets and a block's `_uid`, `_editable`, `component` and `uuid` are never references. Field
/// paths start at the root block's fields, without a `content.` prefix.
public enum ReferenceExtractor {
    /// The references in `story`, in document order. `baseURL` (such as `https://example.com/`)
    /// makes absolute links to the site count as site paths; `rootSlug` is the `full_slug` of
    /// the story at the site root, which a link to `/` names.
    public static func references(
        in story: Story, baseURL: String?, rootSlug: String = SitePathReference.defaultRootSlug
    ) -> [ExtractedReference] {
        guard case .object(let root) = story.content else { return [] }
        var walker = Walker(fullSlug: story.fullSlug, baseURL: baseURL, rootSlug: rootSlug)
        walker.visitBlock(root)
        return walker.found
    }
}

/// One walk over one story's content.
private struct Walker {
    let fullSlug: String
    let baseURL: String?
    let rootSlug: String
    let path = FieldPath()
    var found: [ExtractedReference] = []

    init(fullSlug: String, baseURL: String?, rootSlug: String) {
        self.fullSlug = fullSlug
        self.baseURL = baseURL
        self.rootSlug = rootSlug
    }

    /// A block: its fields, where relations may sit (see ``FieldKind``).
    mutating func visitBlock(_ block: JSONObject) {
        for entry in block {
            visitField(entry.value, key: entry.key)
        }
    }

    private mutating func visitField(_ value: JSONValue, key: String) {
        switch FieldKind(key: key, value: value) {
        case .bookkeeping:
            return
        case .relation(let uuid):
            path.push(key)
            addRelation(uuid)
        case .relations(let uuids):
            path.push(key)
            for (index, element) in uuids.enumerated() {
                guard let uuid = element.stringValue else { continue }
                path.push(index: index)
                addRelation(uuid)
                path.pop()
            }
        case .value:
            path.push(key)
            visit(value)
        }
        path.pop()
    }

    /// Any value below a field.
    private mutating func visit(_ value: JSONValue) {
        switch value {
        case .string(let string):
            visitText(string)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                path.push(index: index)
                visit(element)
                path.pop()
            }
        case .object(let object):
            visitObject(object)
        case .null, .bool, .number:
            break
        }
    }

    /// An object below a field, by its ``ContentKind``.
    private mutating func visitObject(_ object: JSONObject) {
        switch ContentKind(object) {
        case .block:
            visitBlock(object)
        case .multilink:
            visitMultilink(object)
        case .richtext:
            visitRichtextNode(object)
        case .story(let story):
            found.append(ExtractedReference(
                fieldPath: path.text, kind: .relation, reference: .uuid(story.uuid), embeddedStory: story))
        case .asset:
            break
        case .table, .plain:
            for entry in object {
                path.push(entry.key)
                visit(entry.value)
                path.pop()
            }
        }
    }

    private mutating func visitMultilink(_ multilink: JSONObject) {
        switch multilink["linktype"]?.stringValue {
        case "story":
            if let link = StoryLink(multilink: multilink) { add(link, kind: .multilink) }
        case "url":
            let url = multilink["url"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? multilink["cached_url"]?.stringValue
            if let url { addSitePath(url, kind: .multilink) }
        default:
            break
        }
    }

    /// A richtext node: a text node's link, the blocks of a `blok` node, and its child nodes.
    private mutating func visitRichtextNode(_ node: JSONObject) {
        // As the render does: only text nodes link, through their first link mark (the editor
        // allows one).
        if node["type"]?.stringValue == "text", case .array(let marks)? = node["marks"],
           let index = marks.firstIndex(where: { $0["type"]?.stringValue == "link" }) {
            if case .object(let attributes)? = marks[index]["attrs"] {
                path.push("marks")
                path.push(index: index)
                visitLinkMark(attributes)
                path.pop()
                path.pop()
            }
        }
        if node["type"]?.stringValue == "blok", case .array(let body)? = node["attrs"]?["body"] {
            path.push("attrs")
            path.push("body")
            for (index, element) in body.enumerated() {
                // Only blocks: the render gives anything else in a blok's body no template.
                guard case .object(let block) = element, case .block = ContentKind(block) else { continue }
                path.push(index: index)
                visitBlock(block)
                path.pop()
            }
            path.pop()
            path.pop()
        }
        if case .array(let children)? = node["content"] {
            path.push("content")
            for (index, child) in children.enumerated() {
                guard case .object(let child) = child else { continue }
                path.push(index: index)
                visitRichtextNode(child)
                path.pop()
            }
            path.pop()
        }
    }

    private mutating func visitLinkMark(_ attributes: JSONObject) {
        switch attributes["linktype"]?.stringValue {
        case "story":
            if let link = StoryLink(linkMarkAttributes: attributes) { add(link, kind: .richtext) }
        case "url", nil:
            if let href = attributes["href"]?.stringValue { addSitePath(href, kind: .richtext) }
        default:
            break
        }
    }

    /// A string that may hold Markdown links.
    private mutating func visitText(_ text: String) {
        for destination in MarkdownLinks.destinations(in: text) {
            addSitePath(destination, kind: .markdown)
        }
    }

    private mutating func addRelation(_ uuid: String) {
        found.append(ExtractedReference(fieldPath: path.text, kind: .relation, reference: .uuid(uuid)))
    }

    private mutating func add(_ link: StoryLink, kind: ReferenceKind) {
        found.append(ExtractedReference(
            fieldPath: path.text, kind: kind, reference: link.reference, anchor: link.anchor,
            cachedURL: link.cachedURL, lookupOrder: link.lookupOrder, embeddedStory: link.embeddedStory))
    }

    private mutating func addSitePath(_ target: String, kind: ReferenceKind) {
        guard let site = SitePathReference.parse(target, from: fullSlug, baseURL: baseURL, rootSlug: rootSlug) else { return }
        found.append(ExtractedReference(fieldPath: path.text, kind: kind, reference: site.reference, anchor: site.anchor))
    }
}
