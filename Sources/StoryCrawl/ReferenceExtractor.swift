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
        story.withContent { tape, reader, root in
            guard reader.kind(at: root) == .object else { return [] }
            var walker = Walker(tape: tape, reader: reader, fullSlug: story.fullSlug, baseURL: baseURL, rootSlug: rootSlug)
            walker.visitBlock(root)
            return walker.found
        }
    }
}

/// One walk over one story's content, read in place from its tape: a value is an index into
/// the tape, and a string is made only for a reference found.
private struct Walker {
    let tape: JSONTape
    let reader: JSONTape.Reader
    let fullSlug: String
    let baseURL: String?
    let rootSlug: String
    let path = FieldPath()
    var found: [ExtractedReference] = []

    init(tape: JSONTape, reader: JSONTape.Reader, fullSlug: String, baseURL: String?, rootSlug: String) {
        self.tape = tape
        self.reader = reader
        self.fullSlug = fullSlug
        self.baseURL = baseURL
        self.rootSlug = rootSlug
    }

    /// A block: its fields, where relations may sit (see ``FieldKind``).
    mutating func visitBlock(_ block: Int) {
        reader.forEachEntry(ofObject: block) { key, value in
            visitField(value, key: key)
            return true
        }
    }

    /// A block field, where relations may sit (see ``FieldKind``).
    private mutating func visitField(_ value: Int, key: Int) {
        let name = reader.bytes(at: key)
        switch FieldKind(reader, key: name, value: value) {
        case .bookkeeping:
            return
        case .relation(let uuid):
            path.push(key: name)
            addRelation(uuid)
        case .relations(let uuids):
            path.push(key: name)
            for (index, element) in uuids.enumerated() {
                guard let uuid = element.stringValue else { continue }
                path.push(index: index)
                addRelation(uuid)
                path.pop()
            }
        case .value:
            path.push(key: name)
            visit(value)
        }
        path.pop()
    }

    /// Any value below a field.
    private mutating func visit(_ value: Int) {
        switch reader.kind(at: value) {
        case .string:
            visitText(value)
        case .array:
            reader.forEachElement(ofArray: value) { index, element in
                path.push(index: index)
                visit(element)
                path.pop()
            }
        case .object:
            visitObject(value)
        case .null, .false, .true, .number:
            break
        }
    }

    /// An object below a field, by its ``ContentKind``.
    private mutating func visitObject(_ object: Int) {
        switch ContentKind(tape, reader, object: object) {
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
            reader.forEachEntry(ofObject: object) { key, value in
                path.push(key: reader.bytes(at: key))
                visit(value)
                path.pop()
                return true
            }
        }
    }

    private mutating func visitMultilink(_ multilink: Int) {
        guard let linktype = reader.value(forKey: "linktype", inObject: multilink) else { return }
        if reader.isString(at: linktype, equalTo: "story") {
            if let link = StoryLink(multilink: multilink, of: tape, reader) { add(link, kind: .multilink) }
        } else if reader.isString(at: linktype, equalTo: "url") {
            let url = nonEmptyString("url", in: multilink) ?? reader.value(forKey: "cached_url", inObject: multilink).flatMap(reader.string(at:))
            if let url { addSitePath(url, kind: .multilink) }
        }
    }

    /// A richtext node: a text node's link, the blocks of a `blok` node, and its child nodes.
    private mutating func visitRichtextNode(_ node: Int) {
        let type = reader.value(forKey: "type", inObject: node)
        // As the render does: only text nodes link, through their first link mark (the editor
        // allows one).
        if let type, reader.isString(at: type, equalTo: "text"), let marks = reader.value(forKey: "marks", inObject: node),
           reader.kind(at: marks) == .array, let (index, mark) = firstLinkMark(in: marks) {
            if let attributes = reader.value(forKey: "attrs", inObject: mark), reader.kind(at: attributes) == .object {
                path.push("marks")
                path.push(index: index)
                visitLinkMark(attributes)
                path.pop()
                path.pop()
            }
        }
        if let type, reader.isString(at: type, equalTo: "blok"), let attributes = reader.value(forKey: "attrs", inObject: node),
           let body = reader.value(forKey: "body", inObject: attributes), reader.kind(at: body) == .array {
            path.push("attrs")
            path.push("body")
            reader.forEachElement(ofArray: body) { index, element in
                // Only blocks: the render gives anything else in a blok's body no template.
                guard reader.kind(at: element) == .object, case .block = ContentKind(tape, reader, object: element) else { return }
                path.push(index: index)
                visitBlock(element)
                path.pop()
            }
            path.pop()
            path.pop()
        }
        if let children = reader.value(forKey: "content", inObject: node), reader.kind(at: children) == .array {
            path.push("content")
            reader.forEachElement(ofArray: children) { index, child in
                guard reader.kind(at: child) == .object else { return }
                path.push(index: index)
                visitRichtextNode(child)
                path.pop()
            }
            path.pop()
        }
    }

    /// The position and index of the first mark of `marks` whose `type` is `link`.
    private func firstLinkMark(in marks: Int) -> (Int, Int)? {
        var first: (Int, Int)?
        reader.forEachElement(ofArray: marks) { index, mark in
            guard first == nil, let type = reader.value(forKey: "type", inObject: mark), reader.isString(at: type, equalTo: "link") else { return }
            first = (index, mark)
        }
        return first
    }

    private mutating func visitLinkMark(_ attributes: Int) {
        let linktype = reader.value(forKey: "linktype", inObject: attributes)
        if let linktype, reader.isString(at: linktype, equalTo: "story") {
            if let link = StoryLink(linkMarkAttributes: attributes, of: tape, reader) { add(link, kind: .richtext) }
        } else if linktype.map({ reader.kind(at: $0) != .string || reader.isString(at: $0, equalTo: "url") }) ?? true {
            // A `url` link, or one whose `linktype` is missing or not a string.
            if let href = reader.value(forKey: "href", inObject: attributes).flatMap(reader.string(at:)) { addSitePath(href, kind: .richtext) }
        }
    }

    /// The string of `key` in `object`, when it is a non-empty one.
    private func nonEmptyString(_ key: StaticString, in object: Int) -> String? {
        guard let value = reader.value(forKey: key, inObject: object), let string = reader.string(at: value), !string.isEmpty else { return nil }
        return string
    }

    /// A string that may hold Markdown links.
    private mutating func visitText(_ string: Int) {
        for destination in MarkdownLinks.destinations(in: reader.bytes(at: string)) {
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
