import StoryModel

/// The attributes by which Storyblok's Visual Editor finds a block in the page, derived from the
/// block's `_editable` as `storyblokEditable` in @storyblok/js derives them: the JSON inside
/// `<!--#storyblok#{…}-->`, written again compactly, is `data-blok-c`; its `id`, `-` and its
/// `uid` are `data-blok-uid`. Blocks see them as `editable`, for `<div {{{editable}}}>`.
public enum VisualEditorMarkers {
    /// `data-blok-c="…" data-blok-uid="…"` for a block whose `_editable` is `editable`, both
    /// values escaped for a double-quoted attribute; nil when `editable` holds no JSON object.
    public static func attributes(of editable: String) -> String? {
        var json = Substring(editable)
        if json.hasPrefix(commentStart) { json = json.dropFirst(commentStart.count) }
        if json.hasSuffix(commentEnd) { json = json.dropLast(commentEnd.count) }
        guard let parsed = try? JSONValue(parsing: String(json)), case .object(let options) = parsed else { return nil }
        let uid = text(of: options["id"]) + "-" + text(of: options["uid"])
        return "data-blok-c=\"\(HTMLEscaping.attribute(parsed.jsonText()))\" data-blok-uid=\"\(HTMLEscaping.attribute(uid))\""
    }

    private static let commentStart = "<!--#storyblok#"
    private static let commentEnd = "-->"

    /// `value` as text, as `options.id + "-"` makes it: a string as it is, a missing value
    /// `undefined`, anything else as its JSON (a number, `null`, `true`).
    private static func text(of value: JSONValue?) -> String {
        switch value {
        case nil: "undefined"
        case .string(let string)?: string
        case let other?: other.jsonText()
        }
    }
}
