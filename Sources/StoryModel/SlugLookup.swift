/// How a slug reference finds a story, shared by the sources, the link graph and the renderer.
public enum SlugLookup {
    /// The key under which a `full_slug` is indexed and a slug reference is looked up: leading and
    /// trailing `/` removed. So `/blog`, `blog` and `blog/` all find the start page `blog/`, and
    /// `blog/post/` finds `blog/post`. Two stories with one key (`blog` and `blog/`) would be
    /// one page, so a source treats them as a duplicate `full_slug`.
    public static func key(_ slug: String) -> String {
        // Over UTF-8 bytes: every lookup of a story link comes here, and `/` is one byte.
        let bytes = slug.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start != end, bytes[start] == UInt8(ascii: "/") { bytes.formIndex(after: &start) }
        while end != start, bytes[bytes.index(before: end)] == UInt8(ascii: "/") { bytes.formIndex(before: &end) }
        return start == bytes.startIndex && end == bytes.endIndex ? slug : String(slug[start..<end])
    }
}
