/// A link target that names a page of the site by path (a Markdown link, a url multilink, a
/// richtext url link), turned into a slug reference and an anchor.
public struct SitePathReference: Sendable, Hashable {
    /// The `full_slug` the site root `/` means when nothing says which story is placed there.
    public static let defaultRootSlug = "home"

    /// The target story as a slug (`.slug("blog/post")`; `.slug("docs/")` for a folder path;
    /// the root story's slug, such as `.slug("home")`, for the site root).
    public var reference: StoryReference
    /// The fragment without `#`, when the target has a non-empty one.
    public var anchor: String?

    public init(reference: StoryReference, anchor: String?) {
        self.reference = reference
        self.anchor = anchor
    }

    /// Reads `target` as written in the story whose `full_slug` is `fullSlug`:
    /// - `/blog/post`, `/blog/post/`, `/blog/post#intro` from the site root;
    /// - `./sibling`, `../other` and a bare `sibling` relative to the story's folder (the story
    ///   `docs/guides/setup` and the start page `docs/guides/` both live in `docs/guides/`);
    /// - `<baseURL>/blog/post` when `baseURL` (such as `https://base.example/`) is given.
    ///
    /// Returns nil for what is not a story: a scheme (`https:` elsewhere, `mailto:`), `//host`,
    /// a bare `#fragment` or `?query`, an empty target, or a file with an extension
    /// (`/assets/a.png`). The query is dropped and the path percent-decoded; `..` never climbs
    /// above the root, and the root itself (`/`, `../..`, the base URL) is the story placed
    /// there, whose `full_slug` is `rootSlug` (the first entry, such as `en/home`).
    public static func parse(
        _ target: String, from fullSlug: String, baseURL: String?, rootSlug: String = defaultRootSlug
    ) -> SitePathReference? {
        // Read by UTF-8 bytes, as a browser reads a URL: every character that matters is ASCII.
        var text = Substring(target.trimmingWhitespace())
        var fromRoot = false
        if let baseURL, let rest = pathBelow(baseURL: baseURL, in: text) {
            text = rest
            fromRoot = true
        } else if text.isEmpty || text.utf8.first == UInt8(ascii: "#") || text.utf8.first == UInt8(ascii: "?")
                    || text.utf8.prefix(2).elementsEqual("//".utf8) || hasScheme(text) {
            return nil
        }

        var anchor: String?
        if let hash = firstIndex(of: UInt8(ascii: "#"), in: text) {
            let fragment = text[text.utf8.index(after: hash)...]
            anchor = fragment.isEmpty ? nil : String(fragment)
            text = text[..<hash]
        }
        if let question = firstIndex(of: UInt8(ascii: "?"), in: text) { text = text[..<question] }
        if text.utf8.first == UInt8(ascii: "/") { fromRoot = true }
        let path = PercentDecoding.strict(text) ?? String(text)
        if fromRoot, let slug = plainRootSlug(path) {
            return SitePathReference(reference: .slug(slug.isEmpty ? rootSlug : slug), anchor: anchor)
        }

        var segments: [Substring] = fromRoot ? [] : folderSegments(of: fullSlug)
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        for part in parts {
            switch part {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(part)
            }
        }
        let endsInFolder = path.isEmpty || path.hasSuffix("/") || parts.last == "." || parts.last == ".."
        if !endsInFolder, let last = parts.last, last.contains(".") { return nil }
        guard !segments.isEmpty else { return SitePathReference(reference: .slug(rootSlug), anchor: anchor) }
        let slug = segments.joined(separator: "/") + (endsInFolder ? "/" : "")
        return SitePathReference(reference: .slug(slug), anchor: anchor)
    }

    /// The slug of a root path that needs no resolving (no `.` and no empty segment), which is
    /// the common case: the path without its leading `/`.
    private static func plainRootSlug(_ path: String) -> String? {
        path.withUTF8Bytes { bytes in
            var previous: UInt8 = 0
            for byte in bytes {
                if byte == UInt8(ascii: ".") || (byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/")) { return nil }
                previous = byte
            }
            // The path starts with `/`, one byte.
            return String(decoding: UnsafeBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
        }
    }

    /// Where `byte` (an ASCII one) first is in `text`, found in its bytes in place.
    private static func firstIndex(of byte: UInt8, in text: Substring) -> Substring.Index? {
        let offset = text.utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: byte) } ?? text.utf8.firstIndex(of: byte).map { text.utf8.distance(from: text.startIndex, to: $0) }
        return offset.map { text.utf8.index(text.startIndex, offsetBy: $0) }
    }

    /// The folder a story lives in, as path segments: `docs/guides/setup` and `docs/guides/`
    /// are both in `docs/guides`; a top-level story is in the root (no segments).
    private static func folderSegments(of fullSlug: String) -> [Substring] {
        let slug = Story.normalizedSlug(fullSlug)
        var segments = slug.split(separator: "/", omittingEmptySubsequences: true)
        if !slug.hasSuffix("/"), !segments.isEmpty { segments.removeLast() }
        return segments
    }

    /// The rest of `text` after `baseURL` (compared ignoring ASCII case and a trailing `/`), when
    /// `text` is on that site; always root-relative. Measured and cut by UTF-8 bytes: `/`, `#`
    /// and `?` are ASCII, and index arithmetic over characters cost thousands of instructions.
    private static func pathBelow(baseURL: String, in text: Substring) -> Substring? {
        var baseCount = baseURL.utf8.count
        baseURL.withUTF8Bytes { bytes in
            while baseCount > 0, bytes[baseCount - 1] == UInt8(ascii: "/") { baseCount -= 1 }
        }
        guard baseCount > 0, text.utf8.count >= baseCount else { return nil }
        let end = text.utf8.index(text.startIndex, offsetBy: baseCount)
        let base = Substring(baseURL.utf8.prefix(baseCount))
        guard equalIgnoringCase(text[..<end], base) else { return nil }
        let rest = text[end...]
        switch rest.utf8.first {
        case nil: return "/"
        case UInt8(ascii: "/"): return rest
        case UInt8(ascii: "#"), UInt8(ascii: "?"): return "/" + rest
        default: return nil
        }
    }

    /// Whether the two are equal once lowercased: told from their bytes when both are ASCII (a
    /// base URL and the links to it nearly always are), else by lowercasing them.
    private static func equalIgnoringCase(_ left: Substring, _ right: Substring) -> Bool {
        let asciiAnswer = left.utf8.withContiguousStorageIfAvailable { left in
            right.utf8.withContiguousStorageIfAvailable { right -> Bool? in
                guard left.count == right.count else { return nil }
                var equal = true
                for (leftByte, rightByte) in zip(left, right) {
                    guard leftByte < 0x80, rightByte < 0x80 else { return nil }
                    if leftByte != rightByte, leftByte | 0x20 != rightByte | 0x20 || !isASCIILetter(leftByte) { equal = false }
                }
                return equal
            } ?? nil
        } ?? nil
        return asciiAnswer ?? (left.lowercased() == right.lowercased())
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// Whether `text` starts with a URL scheme such as `https:` or `mailto:`.
    private static func hasScheme(_ text: Substring) -> Bool {
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if offset == 0 { return false }
            case UInt8(ascii: ":"): return offset > 0
            default: return false
            }
        }
        return false
    }
}
