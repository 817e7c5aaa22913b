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

    /// Whether the slugs whose UTF-8 bytes are `utf8` and `other` have the same ``key(_:)``, told
    /// from the bytes where they can be (equal, or both ASCII and different), so that checking
    /// every link of a crawl for a stale slug makes no string. Otherwise the keys are compared as
    /// strings are, which takes a composed and a decomposed `é` as the same.
    public static func sameKey(of utf8: UnsafeBufferPointer<UInt8>, as other: UnsafeBufferPointer<UInt8>) -> Bool {
        let trimmed = trimmingSlashes(utf8)
        let otherTrimmed = trimmingSlashes(other)
        if trimmed.elementsEqual(otherTrimmed) { return true }
        if trimmed.allSatisfy({ $0 < 0x80 }) && otherTrimmed.allSatisfy({ $0 < 0x80 }) { return false }
        return String(decoding: trimmed, as: UTF8.self) == String(decoding: otherTrimmed, as: UTF8.self)
    }

    /// `utf8` without its leading and trailing `/`.
    private static func trimmingSlashes(_ utf8: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start != end, utf8[start] == UInt8(ascii: "/") { start += 1 }
        while end != start, utf8[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return utf8[start..<end]
    }
}
