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

    /// The prepared fields of `block`, which sits where ``trail`` is (empty for a root block).
    func block(_ block: JSONObject) -> MustacheObject {
        var fields = MustacheObject(minimumCapacity: block.count + 1)
        var markers: String?
        // Through a buffer pointer, so that each entry is read in place rather than copied.
        block.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                let key = entries[index].key
                if key == "editable" { continue }
                if editable, key == "_editable", case .string(let text) = entries[index].value {
                    markers = VisualEditorMarkers.attributes(of: text)
                }
                trail.push(key)
                fields.append(new: key, field(entries[index].value, key: key))
                trail.pop()
            }
        }
        fields.append(new: "editable", markers.map(MustacheValue.html) ?? Self.noMarkers)
        return fields
    }

    /// `editable` outside the Visual Editor: nothing, so `<div {{{editable}}}>` is `<div >`.
    private static let noMarkers = MustacheValue.html("")

    /// A block field: where option fields may hold story UUIDs (see ``FieldKind``).
    private func field(_ value: JSONValue, key: String) -> MustacheValue {
        switch FieldKind(key: key, value: value) {
        case .bookkeeping:
            return PageContext.plain(value)
        case .relation(let uuid):
            guard let related = links.story(.uuid(uuid)) else {
                warn(.brokenLink, "broken relation to story \(uuid): it is not loaded; shown as an empty list")
                return .array([])
            }
            return .array([item(of: related)])
        case .relations(let uuids):
            return .array(relations(uuids))
        case .value:
            return prepared(value)
        }
    }

    /// Any value below a field.
    private func prepared(_ value: JSONValue) -> MustacheValue {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .number(let number): return .number(number)
        case .string(let string): return .string(string)
        case .array(let elements):
            var result: [MustacheValue] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                trail.push(index: index)
                result.append(prepared(element))
                trail.pop()
            }
            return .array(result)
        case .object(let object):
            return prepared(object)
        }
    }

    /// An object below a field, by its ``ContentKind``.
    private func prepared(_ object: JSONObject) -> MustacheValue {
        switch ContentKind(object) {
        case .block: return .object(block(object))
        case .multilink: return multilink(object)
        case .asset: return asset(object)
        case .table: return table(object)
        case .richtext: return richtext(.object(object))
        case .story(let embedded):
            // A relation resolved by the API: the story itself in place of its UUID.
            return item(of: links.story(.uuid(embedded.uuid)) ?? embedded)
        case .plain: return .object(plain(object))
        }
    }

    private func plain(_ object: JSONObject, extraCapacity: Int = 0) -> MustacheObject {
        var fields = MustacheObject(minimumCapacity: object.count + extraCapacity)
        object.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                trail.push(entries[index].key)
                fields.append(new: entries[index].key, prepared(entries[index].value))
                trail.pop()
            }
        }
        return fields
    }

    // MARK: Field types

    private func richtext(_ document: JSONValue) -> MustacheValue {
        let renderer = RichtextRenderer(links: links, story: story, images: images.richtext ? images : nil, headings: headings) { body, bodyPath, _ in
            var html = ""
            trail.push(root: bodyPath)
            for (index, element) in body.enumerated() {
                guard case .object(let object) = element, let component = object["component"]?.stringValue else { continue }
                trail.push(index: index)
                html += renderComponent(block(object), component)
                trail.pop()
            }
            trail.pop()
            return html
        }
        var warnings: [RenderWarning] = []
        let html = renderer.render(document, fieldPath: trail.text, warnings: &warnings)
        log.add(warnings)
        return .html(html)
    }

    private func multilink(_ object: JSONObject) -> MustacheValue {
        var fields = plain(object, extraCapacity: 3)
        var linktype = "url", title = "", linkTarget = ""
        var id: String?, url: String?, cachedURL: String?, email: String?, anchor: String?
        for entry in object.entries {  // one pass rather than a keyed lookup per field
            switch entry.key {
            case "linktype": linktype = Self.text(entry.value) ?? "url"
            case "title": title = Self.text(entry.value) ?? ""
            case "target": linkTarget = Self.text(entry.value) ?? ""
            case "id": id = Self.text(entry.value)
            case "url": url = Self.text(entry.value)
            case "cached_url": cachedURL = Self.text(entry.value)
            case "email": email = Self.text(entry.value)
            case "anchor": anchor = Self.text(entry.value)
            default: continue
            }
        }
        var href = ""
        var exists = true
        switch linktype {
        case "story":
            // By UUID first (the usual case); StoryLink reads the link in full for the fallbacks.
            if let id, anchor == nil, let target = links.story(.uuid(id)), let targetHref = links.href(to: target) {
                href = targetHref
                title = target.name
                break
            }
            guard let link = StoryLink(multilink: object) else { break }  // an empty link: no href
            if let target = links.story(for: link), let targetHref = links.href(to: target, anchor: link.anchor) {
                href = targetHref
                title = target.name
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
        fields["href"] = .string(href)
        fields["target"] = .string(linkTarget)
        fields["linktype"] = .string(linktype)
        fields["title"] = .string(title)
        fields["exists"] = .bool(exists)
        return .object(fields)
    }

    private func asset(_ object: JSONObject) -> MustacheValue {
        var fields = plain(object, extraCapacity: 4)
        var src = Self.text(object["filename"]) ?? ""
        if !src.isEmpty, !URLSafety.isSafeImageSource(src) {
            warn(.unsafeURL, "asset '\(src)' refused: it could run script")
            src = ""
        }
        fields["src"] = .string(links.resolvingSiteRoot(src))
        if let image = ResponsiveImage(filename: src) {
            fields["width"] = .number(Double(image.width))
            fields["height"] = .number(Double(image.height))
            if let srcset = image.srcset(settings: images, focus: Self.text(object["focus"])) { fields["srcset"] = .string(srcset) }
        }
        return .object(fields)
    }

    private func table(_ object: JSONObject) -> MustacheValue {
        var fields = plain(object)
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
        if case .object(let root) = related.content {
            let (links, renderComponent, levels, images, editable) = (links, renderComponent, max(0, relationLevels - 1), images, editable)
            content = .lazy(MustacheLazyValue {
                let nested = BlockPreparation(
                    links: links, story: related.fullSlug, log: RenderLog(), relationLevels: levels, images: images,
                    editable: editable, renderComponent: renderComponent)
                return .object(nested.block(root))
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

    private static func text(_ value: JSONValue?) -> String? {
        guard case .string(let string)? = value, !string.isEmpty else { return nil }
        return string
    }
}
