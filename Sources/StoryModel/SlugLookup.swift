/// How a slug reference finds a story, shared by the sources, the link graph and the renderer.
public enum SlugLookup {
    /// The key under which a `full_slug` is indexed and a slug reference is looked up: leading and
    /// trailing `/` removed. So `/blog`, `blog` and `blog/` all find the start page `blog/`, and
    /// `blog/post/` finds `blog/post`. Two stories with one key (`blog` and `blog/`) would be
    /// one page, so a source treats them as a duplicate `full_slug`.
    public static func key(_ slug: String) -> String {
        var key = Substring(slug)
        while key.first == "/" { key = key.dropFirst() }
        while key.last == "/" { key = key.dropLast() }
        return key.count == slug.utf8.count ? slug : String(key)
    }
}
