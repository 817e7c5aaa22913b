/// Relative-URL arithmetic between pages of one site, so that internal links work under any
/// sub-path and in preview without configuration.
///
/// Page URLs are site-relative without a leading slash: `""` is the home page, `"blog/post/"` a
/// page (a folder with an `index.html`), `"assets/x.svg"` a file. Every page computes dozens of
/// these, so the arithmetic runs over UTF-8 bytes and allocates only the result.
public enum RelativeURL {
    /// The href from the page at `page` to the site-relative `target` (which may end in
    /// `#fragment` or `?query`; a leading `/` is ignored): `from "blog/post/"` to `"about/"` is
    /// `"../../about/"`, to `"blog/post/#intro"` is `"#intro"`, and a link to the page itself
    /// is `"./"`. A target whose first segment holds `:` gets `./` (`./javascript:x/`), so the
    /// href never reads as a scheme.
    public static func href(from page: String, to target: String) -> String {
        var page = page
        var target = target
        return page.withUTF8 { page in
            target.withUTF8 { target in href(from: page, to: target) }
        }
    }

    /// The prefix from the page at `page` to the site root: `"./"` for home, `"../../"` for
    /// `"blog/post/"`. Templates put it before asset paths.
    public static func root(of page: String) -> String {
        var depth = 0
        for byte in page.utf8 where byte == slash { depth += 1 }
        return depth == 0 ? "./" : String(repeating: "../", count: depth)
    }

    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")

    private static func href(from page: UnsafeBufferPointer<UInt8>, to target: UnsafeBufferPointer<UInt8>) -> String {
        // The page's folder is everything up to its last slash ("blog/list.html" is in "blog/").
        var pageFolderEnd = 0
        for index in page.indices where page[index] == slash { pageFolderEnd = index + 1 }
        let isFolderPage = pageFolderEnd == page.count

        var targetStart = 0
        while targetStart < target.count, target[targetStart] == slash { targetStart += 1 }
        var suffixStart = target.count
        for index in targetStart..<target.count where target[index] == UInt8(ascii: "#") || target[index] == UInt8(ascii: "?") {
            suffixStart = index
            break
        }
        var targetFolderEnd = targetStart
        for index in targetStart..<suffixStart where target[index] == slash { targetFolderEnd = index + 1 }

        // The folders both share, ending at a slash.
        var common = 0
        var offset = 0
        while offset < pageFolderEnd, targetStart + offset < targetFolderEnd, page[offset] == target[targetStart + offset] {
            if page[offset] == slash { common = offset + 1 }
            offset += 1
        }
        var ups = 0
        for index in common..<pageFolderEnd where page[index] == slash { ups += 1 }

        let rest = UnsafeBufferPointer(rebasing: target[(targetStart + common)..<suffixStart])
        let suffix = UnsafeBufferPointer(rebasing: target[suffixStart...])
        if ups == 0, rest.isEmpty {
            // The target is the folder this page lives in: for a folder page, the page itself.
            if isFolderPage, suffix.first == UInt8(ascii: "#") { return String(decoding: suffix, as: UTF8.self) }
            return assemble(ups: 0, dotSlash: true, rest, suffix)
        }
        // A first segment holding `:` would read as a scheme (`javascript:alert(1)/`), so it
        // gets `./` before it (RFC 3986, section 4.2).
        return assemble(ups: ups, dotSlash: ups == 0 && startsWithColonSegment(rest), rest, suffix)
    }

    /// Whether a `:` comes before any `/` in `path`.
    private static func startsWithColonSegment(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in path {
            if byte == slash { return false }
            if byte == UInt8(ascii: ":") { return true }
        }
        return false
    }

    /// `"../"` `ups` times (or `"./"`), then `rest` and `suffix`, written straight into the
    /// string's storage.
    private static func assemble(ups: Int, dotSlash: Bool, _ rest: UnsafeBufferPointer<UInt8>, _ suffix: UnsafeBufferPointer<UInt8>) -> String {
        let count = ups * 3 + (dotSlash ? 2 : 0) + rest.count + suffix.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var position = 0
            func put(_ byte: UInt8) {
                buffer[position] = byte
                position += 1
            }
            for _ in 0..<ups {
                put(dot)
                put(dot)
                put(slash)
            }
            if dotSlash {
                put(dot)
                put(slash)
            }
            for byte in rest { put(byte) }
            for byte in suffix { put(byte) }
            return position
        }
    }
}
