/// A site navigation for the synthetic space: the global story (`Content/global.json`, slug
/// `global`, which every page sees as `global`) with a `navigation` list of `nav_item` blocks,
/// each a story multilink by UUID to one of the first pages after home. A theme that renders it
/// shows each item's resolved `href` and the target's name (`link.title`), so a change to the
/// name of one of those pages changes every page; a change to any other field of theirs does not.
extension SyntheticSpace {
    /// The number of navigation items in a space of more than that many pages.
    static let navigationCount = 40

    /// The pages the navigation links to, in order: 1…40, fewer when the space has fewer.
    public static func navigationTargets(of count: Int) -> [Int] {
        count > 1 ? Array(1...min(navigationCount, count - 1)) : []
    }

    /// The global story as a content API response, `{"story": {...}}`, its root block a
    /// `global` component whose `navigation` holds a `nav_item` (with a `link`) for each of
    /// ``navigationTargets(of:)``. It has no translatable fields: in a site with languages
    /// each item links to the target's version in the page's language.
    public static func globalStoryJSON(of count: Int) -> String {
        var json = JSONText()
        json.raw(#"{"story": {"name": "Global", "uuid": "00000000-0000-4000-8000-000000000002", "slug": "global", "full_slug": "global", "#)
        json.raw(#""content": {"_uid": "global-root", "component": "global", "navigation": ["#)
        for (number, target) in navigationTargets(of: count).enumerated() {
            if number > 0 { json.raw(", ") }
            json.raw(#"{"_uid": "nav-\#(target)", "component": "nav_item", "link": {"id": "#); json.string(uuid(target))
            json.raw(#", "url": "", "linktype": "story", "fieldtype": "multilink", "cached_url": "#); json.string(fullSlug(target))
            json.raw("}}")
        }
        json.raw("]}}}\n")
        return json.text
    }
}
