import Mustache
import StoryModel

/// Turns a block's JSON fields into the values its template reads, made ready for HTML on one
/// page, by what ``FieldKind`` and ``ContentKind`` say each value is:
/// - richtext → safe HTML (``RichtextRenderer``, `blok` nodes through the component templates);
/// - multilink → `href` (relative to the page), `target`, `linktype`, `title` (the target story's
///   name), `exists` (false for a broken story link, whose `href` falls back to `cached_url`);
/// - asset (also each element of a multi-asset field) → the object plus `src`; on the asset CDN
///   also `width`, `height` and `srcset` (``ResponsiveImage``, by ``images``);
/// - table field → `thead` (cells with `value`) and `tbody` (rows whose `body` holds the cells);
/// - story UUIDs in an option field (or a resolved relation) → story summaries (`name`, `href`,
///   `full_slug`, `slug`, `uuid`, dates, tags, `is_folder`, `content`), two levels deep (see
///   ``relationLevels``); one UUID string gives a one-element list, and a UUID no story has
///   gives none (reported), never the raw UUID;
/// - nested blocks → prepared blocks; a block's `_uid`, `_editable`, `component` and `uuid`, and
///   everything else, as it is;
/// - and every block gains `editable`: with ``editable`` on, the Visual Editor's attributes from
///   its `_editable` (``VisualEditorMarkers``); else, and for a block without `_editable`, empty.
///   A block field of that name is hidden.
struct BlockPreparation {
    /// Renders a prepared block with its component template; returns the HTML.
    typealias ComponentRenderer = @Sendable (_ block: MustacheObject, _ component: String) -> String

    let links: PageLinks
    /// The `full_slug` warnings name.
    let story: String
    let log: RenderLog
    /// Where in the story the value being prepared sits.
    let trail = FieldPath()
    /// How many levels of relations below this one still carry their story's `content`: a
    /// page's own relations (2) and those of a related or listed story (1) do; below that a
    /// related story is only `name`, `href` and `full_slug`, so stories relating to each other
    /// end, and fan-out stays bounded.
    let relationLevels: Int
    /// The widths and format of assets' `srcset`, and whether richtext images get it too.
    var images = ImageSettings()
    /// Where the page's own richtext headings are recorded, and given ids; nil (as for a
    /// related or listed story's content, and `global`) leaves headings without ids.
    var headings: HeadingOutline?
    /// Whether blocks carry the Visual Editor's markers in `editable`.
    var editable = false
    let renderComponent: ComponentRenderer

    /// The prepared fields of `story`'s root block: read from its tape in place (a story made
    /// from a tree is read from a tape made of its content).
    func block(of story: Story) -> MustacheObject {
        story.withContent { tape, reader, root in
            reader.kind(at: root) == .object ? block(Content(tape: tape, reader: reader), root) : MustacheObject()
        }
    }

    /// The component name of `story`'s root block (nil when it has none) and the block's prepared
    /// fields, from one read of its content.
    func componentAndBlock(of story: Story) -> (component: String?, block: MustacheObject) {
        story.withContent { tape, reader, root in
            guard reader.kind(at: root) == .object else { return (nil, MustacheObject()) }
            let component = reader.value(forKey: "component", inObject: root).flatMap(reader.string(at:))
            return (component, block(Content(tape: tape, reader: reader), root))
        }
    }

    /// The prepared fields of the block at `root` of `tape`.
    func block(in tape: JSONTape, at root: Int) -> MustacheObject {
        tape.withReader { block(Content(tape: tape, reader: $0), root) }
    }

    /// The prepared value of `story`'s root block field `key`, as its block would show it; nil
    /// when the block has no such field.
    func field(_ key: String, of story: Story) -> MustacheValue? {
        story.withContent { tape, reader, root in
            guard let value = reader.value(forKey: key, inObject: root) else { return nil }
            trail.push(key)
            defer { trail.pop() }
            return field(Content(tape: tape, reader: reader), value, key: key)
        }
    }

    /// The tape being prepared, and its reader.
    private struct Content {
        let tape: JSONTape
        let reader: JSONTape.Reader
    }

    /// The prepared fields of the block at `block`, which sits where ``trail`` is (empty for a
    /// root block).
    private func block(_ content: Content, _ block: Int) -> MustacheObject {
        let reader = content.reader
        var fields = MustacheObject(minimumCapacity: reader.count(at: block) + 1)
        var markers: String?
        reader.forEachEntry(ofObject: block) { keyIndex, value in
            let key = String(decoding: reader.bytes(at: keyIndex), as: UTF8.self)
            if key == "editable" { return true }
            if editable, key == "_editable", let text = reader.string(at: value) {
                markers = VisualEditorMarkers.attributes(of: text)
            }
            trail.push(key: reader.bytes(at: keyIndex))
            fields.append(new: key, field(content, value, key: key))
            trail.pop()
            return true
        }
        fields.append(new: "editable", markers.map(MustacheValue.html) ?? Self.noMarkers)
        return fields
    }

    /// `editable` outside the Visual Editor: nothing, so `<div {{{editable}}}>` is `<div >`.
    private static let noMarkers = MustacheValue.html("")

    /// A block field: where option fields may hold story UUIDs (see ``FieldKind``).
    private func field(_ content: Content, _ value: Int, key: String) -> MustacheValue {
        var key = key
        let kind = key.withUTF8 { FieldKind(content.reader, key: $0, value: value) }
        switch kind {
        case .bookkeeping:
            return PageContext.plain(content.reader.value(at: value))
        case .relation(let uuid):
            guard let related = links.story(.uuid(uuid)) else {
                warn(.brokenLink, "broken relation to story \(uuid): it is not loaded; shown as an empty list")
                return .array([])
            }
            return .array([item(of: related)])
        case .relations(let uuids):
            return .array(relations(uuids))
        case .value:
            return prepared(content, value)
        }
    }

    /// Any value below a field.
    private func prepared(_ content: Content, _ value: Int) -> MustacheValue {
        let reader = content.reader
        switch reader.kind(at: value) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(reader.number(at: value)!)
        case .string: return .string(reader.string(at: value)!)
        case .array:
            var result: [MustacheValue] = []
            result.reserveCapacity(reader.count(at: value))
            reader.forEachElement(ofArray: value) { index, element in
                trail.push(index: index)
                result.append(prepared(content, element))
                trail.pop()
            }
            return .array(result)
        case .object:
            return preparedObject(content, value)
        }
    }

    /// An object below a field, by its ``ContentKind``.
    private func preparedObject(_ content: Content, _ object: Int) -> MustacheValue {
        switch ContentKind(content.tape, content.reader, object: object) {
        case .block: return .object(block(content, object))
        case .multilink: return multilink(content, object)
        case .asset: return asset(content, object)
        case .table: return table(content, object)
        case .richtext: return richtext(content, object)
        case .story(let embedded):
            // A relation resolved by the API: the story itself in place of its UUID.
            return item(of: links.story(.uuid(embedded.uuid)) ?? embedded)
        case .plain: return .object(plain(content, object))
        }
    }

    /// The prepared entries of the object at `object`; `note` sees each entry's key bytes, its
    /// value's index and its position in the object made, for a caller that reads some as well.
    private func plain(
        _ content: Content, _ object: Int, extraCapacity: Int = 0,
        noting note: (_ key: UnsafeBufferPointer<UInt8>, _ value: Int, _ position: Int) -> Void = { _, _, _ in }
    ) -> MustacheObject {
        let reader = content.reader
        var fields = MustacheObject(minimumCapacity: reader.count(at: object) + extraCapacity)
        reader.forEachEntry(ofObject: object) { key, value in
            let bytes = reader.bytes(at: key)
            trail.push(key: bytes)
            fields.append(new: String(decoding: bytes, as: UTF8.self), prepared(content, value))
            trail.pop()
            note(bytes, value, fields.count - 1)
            return true
        }
        return fields
    }

    // MARK: Field types

    /// The richtext document at `document` of the tape being prepared, rendered in place; its
    /// `blok` nodes' blocks are prepared from the same tape.
    private func richtext(_ content: Content, _ document: Int) -> MustacheValue {
        let renderer = RichtextRenderer(links: links, story: story, images: images.richtext ? images : nil, headings: headings) { blocks, bodyPath, _ in
            var html = ""
            trail.push(root: bodyPath)
            blocks.tape.withReader { reader in
                let content = Content(tape: blocks.tape, reader: reader)
                reader.forEachElement(ofArray: blocks.body) { index, element in
                    guard let componentIndex = reader.value(forKey: "component", inObject: element),
                          let component = reader.string(at: componentIndex) else { return }
                    trail.push(index: index)
                    html += renderComponent(block(content, element), component)
                    trail.pop()
                }
            }
            trail.pop()
            return html
        }
        var warnings: [RenderWarning] = []
        let html = renderer.render(content.tape, at: document, fieldPath: trail.text, warnings: &warnings)
        log.add(warnings)
        return .html(html)
    }

    private func multilink(_ content: Content, _ object: Int) -> MustacheValue {
        let reader = content.reader
        var linktype = "url", title = "", linkTarget = ""
        var id: String?, url: String?, cachedURL: String?, email: String?, anchor: String?
        var positions = LinkFieldPositions()
        // The link's own fields are read in the pass that prepares them.
        var fields = plain(content, object, extraCapacity: 5) { name, value, position in
            typealias Reader = JSONTape.Reader
            if Reader.equal(name, "linktype") {
                linktype = Self.text(reader, value) ?? "url"
                positions.linktype = position
            } else if Reader.equal(name, "title") {
                title = Self.text(reader, value) ?? ""
                positions.title = position
            } else if Reader.equal(name, "target") {
                linkTarget = Self.text(reader, value) ?? ""
                positions.target = position
            } else if Reader.equal(name, "id") {
                id = Self.text(reader, value)
            } else if Reader.equal(name, "url") {
                url = Self.text(reader, value)
            } else if Reader.equal(name, "cached_url") {
                cachedURL = Self.text(reader, value)
            } else if Reader.equal(name, "email") {
                email = Self.text(reader, value)
            } else if Reader.equal(name, "anchor") {
                anchor = Self.text(reader, value)
            } else if Reader.equal(name, "href") {
                positions.href = position
            } else if Reader.equal(name, "exists") {
                positions.exists = position
            }
        }
        var href = ""
        var exists = true
        switch linktype {
        case "story":
            // By UUID first (the usual case); StoryLink reads the link in full for the fallbacks.
            if let id, anchor == nil, let target = links.page(.uuid(id)), let targetHref = links.href(to: target) {
                href = targetHref
                title = target.story.name
                break
            }
            guard let link = StoryLink(multilink: object, of: content.tape, reader) else { break }  // an empty link: no href
            if let target = links.page(for: link), let targetHref = links.href(to: target, anchor: link.anchor) {
                href = targetHref
                title = target.story.name
            } else {
                exists = false
                let saved = link.cachedURL.map { "/" + $0 + (link.anchor.map { "#" + $0 } ?? "") } ?? ""
                href = links.resolvingSiteRoot(saved)
                warn(.brokenLink, "broken link to story \(link.reference): no page for it; the link keeps its saved URL '\(saved)'")
            }
        case "email":
            var address = Substring(email ?? url ?? cachedURL ?? "")
            if address.lowercased().hasPrefix("mailto:") { address = address.dropFirst(7) }
            href = address.isEmpty ? "" : "mailto:" + address
        default:
            let url = url ?? cachedURL ?? ""
            if linktype == "url", case .page(let pageHref) = links.sitePath(url) {
                href = pageHref
            } else {
                href = links.resolvingSiteRoot(url)
            }
        }
        if !href.isEmpty, !URLSafety.isSafeLink(href) {
            warn(.unsafeURL, "link to '\(href)' refused: it could run script; rendered with an empty href")
            href = ""
        }
        fields.set(.string(href), named: "href", at: positions.href)
        fields.set(.string(linkTarget), named: "target", at: positions.target)
        fields.set(.string(linktype), named: "linktype", at: positions.linktype)
        fields.set(.string(title), named: "title", at: positions.title)
        fields.set(.bool(exists), named: "exists", at: positions.exists)
        return .object(fields)
    }

    /// Where the fields a multilink sets anew are among its prepared fields, when it has them.
    private struct LinkFieldPositions {
        var href, target, linktype, title, exists: Int?
    }

    private func asset(_ content: Content, _ object: Int) -> MustacheValue {
        let reader = content.reader
        var fields = plain(content, object, extraCapacity: 4)
        var src = reader.value(forKey: "filename", inObject: object).flatMap { Self.text(reader, $0) } ?? ""
        if !src.isEmpty, !URLSafety.isSafeImageSource(src) {
            warn(.unsafeURL, "asset '\(src)' refused: it could run script")
            src = ""
        }
        fields["src"] = .string(links.resolvingSiteRoot(src))
        if let image = ResponsiveImage(filename: src) {
            fields["width"] = .number(Double(image.width))
            fields["height"] = .number(Double(image.height))
            let focus = reader.value(forKey: "focus", inObject: object).flatMap { Self.text(reader, $0) }
            if let srcset = image.srcset(settings: images, focus: focus) { fields["srcset"] = .string(srcset) }
        }
        return .object(fields)
    }

    private func table(_ content: Content, _ object: Int) -> MustacheValue {
        var fields = plain(content, object)
        if fields["thead"] == nil { fields["thead"] = .array([]) }
        if fields["tbody"] == nil { fields["tbody"] = .array([]) }
        return .object(fields)
    }

    // MARK: Relations

    private func relations(_ uuids: [JSONValue]) -> [MustacheValue] {
        var summaries: [MustacheValue] = []
        for (index, element) in uuids.enumerated() {
            guard let uuid = element.stringValue else { continue }
            if let related = links.story(.uuid(uuid)) {
                summaries.append(item(of: related))
            } else {
                trail.push(index: index)
                warn(.brokenLink, "broken relation to story \(uuid): it is not loaded; left out of the list")
                trail.pop()
            }
        }
        return summaries
    }

    /// A related story as this level shows it: a summary with content while
    /// ``relationLevels`` lasts, else only its `name`, `href` and `full_slug`.
    private func item(of related: Story) -> MustacheValue {
        guard relationLevels > 0 else {
            var fields = MustacheObject(minimumCapacity: 4)
            fields.append(new: "name", .string(related.name))
            fields.append(new: "href", .string(links.href(to: related) ?? ""))
            fields.append(new: "full_slug", .string(related.fullSlug))
            // Null, not absent: `{{content.role}}` must not find an enclosing story's content.
            fields.append(new: "content", .null)
            return .object(fields)
        }
        return summary(of: related)
    }

    /// A related or listed story: its identity, link, dates, tags and content (prepared for this
    /// page when a template first reads it, its own relations one level less deep; problems in
    /// it are reported when its own page renders).
    func summary(of related: Story) -> MustacheValue {
        let content: MustacheValue
        if related.hasContentObject {
            let (links, renderComponent, levels, images, editable) = (links, renderComponent, max(0, relationLevels - 1), images, editable)
            content = .lazy(MustacheLazyValue {
                let nested = BlockPreparation(
                    links: links, story: related.fullSlug, log: RenderLog(), relationLevels: levels, images: images,
                    editable: editable, renderComponent: renderComponent)
                return .object(nested.block(of: related))
            })
        } else {
            content = .null
        }
        var fields = MustacheObject(minimumCapacity: 11)
        fields.append(new: "name", .string(related.name))
        fields.append(new: "href", .string(links.href(to: related) ?? ""))
        fields.append(new: "full_slug", .string(related.fullSlug))
        fields.append(new: "slug", .string(related.slug))
        fields.append(new: "uuid", .string(related.uuid))
        fields.append(new: "published_at", related.string("published_at").map(MustacheValue.string) ?? .null)
        fields.append(new: "first_published_at", related.string("first_published_at").map(MustacheValue.string) ?? .null)
        fields.append(new: "tag_list", .array(related.tags.map(MustacheValue.string)))
        fields.append(new: "tags", PageContext.tags(of: related, links: links))
        fields.append(new: "is_folder", .bool(related.startPageFolder != nil))
        fields.append(new: "content", content)
        return .object(fields)
    }

    // MARK: Helpers

    private func warn(_ kind: RenderWarning.Kind, _ message: String) {
        log.add(RenderWarning(kind: kind, story: story, fieldPath: trail.text, message: message))
    }

    /// The string at `index` of a tape, when it is a non-empty one.
    private static func text(_ reader: JSONTape.Reader, _ index: Int) -> String? {
        guard reader.kind(at: index) == .string, !reader.bytes(at: index).isEmpty else { return nil }
        return reader.string(at: index)
    }
}

extension MustacheObject {
    /// Sets the member `name`, which is at `position` when it is there at all.
    fileprivate mutating func set(_ value: MustacheValue, named name: String, at position: Int?) {
        if let position {
            replaceValue(at: position, with: value)
        } else {
            append(new: name, value)
        }
    }
}
