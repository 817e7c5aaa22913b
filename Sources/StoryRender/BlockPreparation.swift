import Mustache
import StoryModel

/// Turns a block's JSON fields into the values its template reads, made ready for HTML on one
/// page:
/// - richtext → safe HTML (``RichtextRenderer``, `blok` nodes through the component templates);
/// - multilink → `href` (relative to the page), `target`, `linktype`, `title` (the target story's
///   name), `exists` (false for a broken story link, whose `href` falls back to `cached_url`);
/// - asset (also each element of a multi-asset field) → the object plus `src`;
/// - table field → `thead` (cells with `value`) and `tbody` (rows whose `body` holds the cells);
/// - story UUIDs in an option field (or a resolved relation) → story summaries (`name`, `href`,
///   `full_slug`, `slug`, `uuid`, `content`); one UUID string gives a one-element list;
/// - nested blocks → prepared blocks; everything else as it is.
struct BlockPreparation {
    /// Renders a prepared block with its component template; returns the HTML.
    typealias ComponentRenderer = (_ block: [String: MustacheValue], _ component: String) -> String

    let links: PageLinks
    /// The `full_slug` warnings name.
    let story: String
    let log: RenderLog
    /// Whether story UUIDs in option fields become story summaries (not inside a summary's own
    /// content, so that stories relating to each other do not recurse).
    let expandsRelations: Bool
    let renderComponent: ComponentRenderer

    /// The prepared fields of `block`, whose fields sit at `path` (`""` for a root block).
    func block(_ block: JSONObject, path: String) -> [String: MustacheValue] {
        var fields = [String: MustacheValue](minimumCapacity: block.count)
        for entry in block {
            fields[entry.key] = field(entry.value, key: entry.key, path: Self.path(path, entry.key))
        }
        return fields
    }

    /// A block field: where option fields may hold story UUIDs.
    private func field(_ value: JSONValue, key: String, path: String) -> MustacheValue {
        switch value {
        case .string(let string):
            if expandsRelations, !Self.isBookkeeping(key), StoryReference.isUUIDShaped(string),
               let related = links.story(.uuid(string)) {
                return .array([summary(of: related)])
            }
            return .string(string)
        case .array(let elements) where expandsRelations && !elements.isEmpty && elements.allSatisfy(Self.isUUIDString):
            return .array(relations(elements, path: path))
        default:
            return prepared(value, path: path)
        }
    }

    /// Any value below a field.
    private func prepared(_ value: JSONValue, path: String) -> MustacheValue {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .number(let number): return .number(number)
        case .string(let string): return .string(string)
        case .array(let elements):
            var result: [MustacheValue] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                result.append(prepared(element, path: path + "[\(index)]"))
            }
            return .array(result)
        case .object(let object):
            return prepared(object, path: path)
        }
    }

    private func prepared(_ object: JSONObject, path: String) -> MustacheValue {
        if case .string? = object["component"] { return .object(block(object, path: path)) }
        switch object["fieldtype"]?.stringValue {
        case "multilink": return multilink(object, path: path)
        case "asset": return asset(object, path: path)
        case "table": return table(object, path: path)
        default: break
        }
        if object["type"]?.stringValue == "doc" { return richtext(.object(object), path: path) }
        if object["linktype"] != nil, object["cached_url"] != nil { return multilink(object, path: path) }
        if case .string? = object["filename"] { return asset(object, path: path) }
        if expandsRelations, object["uuid"] != nil, object["full_slug"] != nil, object["content"] != nil,
           let embedded = try? Story(json: object) {
            // A relation resolved by the API: the story itself in place of its UUID.
            return summary(of: links.story(.uuid(embedded.uuid)) ?? embedded)
        }
        return .object(plain(object, path: path))
    }

    private func plain(_ object: JSONObject, path: String) -> [String: MustacheValue] {
        var fields = [String: MustacheValue](minimumCapacity: object.count)
        for entry in object {
            fields[entry.key] = prepared(entry.value, path: Self.path(path, entry.key))
        }
        return fields
    }

    // MARK: Field types

    private func richtext(_ document: JSONValue, path: String) -> MustacheValue {
        let renderer = RichtextRenderer(links: links, story: story) { body, bodyPath, _ in
            var html = ""
            for (index, element) in body.enumerated() {
                guard case .object(let object) = element, let component = object["component"]?.stringValue else { continue }
                html += renderComponent(block(object, path: bodyPath + "[\(index)]"), component)
            }
            return html
        }
        var warnings: [RenderWarning] = []
        let html = renderer.render(document, fieldPath: path, warnings: &warnings)
        log.add(warnings)
        return .html(html)
    }

    private func multilink(_ object: JSONObject, path: String) -> MustacheValue {
        var fields = plain(object, path: path)
        let linktype = Self.text(object["linktype"]) ?? "url"
        var href = ""
        var exists = true
        var title = Self.text(object["title"]) ?? ""
        switch linktype {
        case "story":
            guard let link = StoryLink(multilink: object) else { break }  // an empty link: no href
            if let target = links.story(for: link), let targetHref = links.href(to: target, anchor: link.anchor) {
                href = targetHref
                title = target.name
            } else {
                exists = false
                let saved = link.cachedURL.map { "/" + $0 + (link.anchor.map { "#" + $0 } ?? "") } ?? ""
                href = links.resolvingSiteRoot(saved)
                warn(.brokenLink, path, "broken link to story \(link.reference): no page for it; the link keeps its saved URL '\(saved)'")
            }
        case "email":
            var address = Substring(Self.text(object["email"]) ?? Self.text(object["url"]) ?? Self.text(object["cached_url"]) ?? "")
            if address.lowercased().hasPrefix("mailto:") { address = address.dropFirst(7) }
            href = address.isEmpty ? "" : "mailto:" + address
        default:
            let url = Self.text(object["url"]) ?? Self.text(object["cached_url"]) ?? ""
            if linktype == "url", case .page(let pageHref) = links.sitePath(url) {
                href = pageHref
            } else {
                href = links.resolvingSiteRoot(url)
            }
        }
        if !href.isEmpty, !URLSafety.isSafeLink(href) {
            warn(.unsafeURL, path, "link to '\(href)' refused: it could run script; rendered with an empty href")
            href = ""
        }
        fields["href"] = .string(href)
        fields["target"] = .string(Self.text(object["target"]) ?? "")
        fields["linktype"] = .string(linktype)
        fields["title"] = .string(title)
        fields["exists"] = .bool(exists)
        return .object(fields)
    }

    private func asset(_ object: JSONObject, path: String) -> MustacheValue {
        var fields = plain(object, path: path)
        var src = Self.text(object["filename"]) ?? ""
        if !src.isEmpty, !URLSafety.isSafeImageSource(src) {
            warn(.unsafeURL, path, "asset '\(src)' refused: it could run script")
            src = ""
        }
        fields["src"] = .string(links.resolvingSiteRoot(src))
        return .object(fields)
    }

    private func table(_ object: JSONObject, path: String) -> MustacheValue {
        var fields = plain(object, path: path)
        if fields["thead"] == nil { fields["thead"] = .array([]) }
        if fields["tbody"] == nil { fields["tbody"] = .array([]) }
        return .object(fields)
    }

    // MARK: Relations

    private func relations(_ uuids: [JSONValue], path: String) -> [MustacheValue] {
        var summaries: [MustacheValue] = []
        for (index, element) in uuids.enumerated() {
            guard let uuid = element.stringValue else { continue }
            if let related = links.story(.uuid(uuid)) {
                summaries.append(summary(of: related))
            } else {
                warn(.brokenLink, path + "[\(index)]", "broken relation to story \(uuid): it is not loaded; left out of the list")
            }
        }
        return summaries
    }

    /// A related story for listing: its name, link and content (prepared for this page, without
    /// expanding its own relations; problems in it are reported when its own page renders).
    private func summary(of related: Story) -> MustacheValue {
        let content: MustacheValue
        if case .object(let root) = related.content {
            let nested = BlockPreparation(
                links: links, story: related.fullSlug, log: RenderLog(), expandsRelations: false,
                renderComponent: renderComponent)
            content = .object(nested.block(root, path: ""))
        } else {
            content = .null
        }
        return .object([
            "name": .string(related.name),
            "href": .string(links.href(to: related) ?? ""),
            "full_slug": .string(related.fullSlug),
            "slug": .string(related.slug),
            "uuid": .string(related.uuid),
            "content": content,
        ])
    }

    // MARK: Helpers

    private func warn(_ kind: RenderWarning.Kind, _ path: String, _ message: String) {
        log.add(RenderWarning(kind: kind, story: story, fieldPath: path, message: message))
    }

    private static func path(_ base: String, _ key: String) -> String {
        base.isEmpty ? key : base + "." + key
    }

    private static func text(_ value: JSONValue?) -> String? {
        guard case .string(let string)? = value, !string.isEmpty else { return nil }
        return string
    }

    private static func isUUIDString(_ value: JSONValue) -> Bool {
        guard case .string(let string) = value else { return false }
        return StoryReference.isUUIDShaped(string)
    }

    /// Keys that identify a block rather than hold content.
    private static func isBookkeeping(_ key: String) -> Bool {
        key == "_uid" || key == "_editable" || key == "component" || key == "uuid"
    }
}
