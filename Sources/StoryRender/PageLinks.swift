import StoryModel

/// Link resolution from one page: a ``LinkResolving`` plus where the page is, giving hrefs
/// relative to that page (or, for a page served at any path such as the 404 page, absolute
/// from the site's root path).
public struct PageLinks: Sendable {
    /// Where stories live.
    public let resolver: any LinkResolving
    /// The site-relative URL of the page being rendered (`""` for home, `"blog/post/"`), as
    /// its folder is named (raw slug text).
    public let pageURL: String
    /// ``pageURL`` percent-encoded (``PercentEncoding/path(_:)``), as hrefs are computed from.
    private let encodedPageURL: String
    /// The `full_slug` of the story being rendered; relative Markdown and url links
    /// (`../other`) are read from its folder.
    public let fullSlug: String
    /// The site's base URL, when set: absolute links to it count as site paths.
    public let baseURL: String?
    /// For a page that may be served at any path: the site's root path (`/`, `/docs/`), which
    /// every href then starts with.
    public let absoluteRoot: String?

    /// Links from the page at `pageURL`, showing the story `fullSlug`.
    public init(resolver: any LinkResolving, pageURL: String, fullSlug: String = "", baseURL: String? = nil) {
        self.resolver = resolver
        self.pageURL = pageURL
        self.encodedPageURL = PercentEncoding.path(pageURL)
        self.fullSlug = fullSlug
        self.baseURL = baseURL
        self.absoluteRoot = nil
    }

    /// Links from a page served at any path, written from the site's root path `absoluteRoot`.
    public init(resolver: any LinkResolving, absoluteRoot: String, baseURL: String? = nil) {
        self.resolver = resolver
        self.pageURL = ""
        self.encodedPageURL = ""
        self.fullSlug = ""
        self.baseURL = baseURL
        self.absoluteRoot = absoluteRoot.hasSuffix("/") ? absoluteRoot : absoluteRoot + "/"
    }

    /// The story `reference` points to, or nil.
    public func story(_ reference: StoryReference) -> Story? {
        resolver.story(for: reference)
    }

    /// The story `reference` points to with its page's URL, or nil.
    public func page(_ reference: StoryReference) -> LinkedPage? {
        resolver.page(for: reference)
    }

    /// The story a story link points to with its page's URL, trying its ``StoryLink/lookupOrder``;
    /// nil when none matches.
    public func page(for link: StoryLink) -> LinkedPage? {
        firstFound(for: link) { resolver.page(for: $0) }
    }

    /// The URL of the page of the story `reference` points to, or nil (see ``LinkedURL``).
    public func linkedURL(_ reference: StoryReference) -> LinkedURL? {
        resolver.linkedURL(for: reference)
    }

    /// The URL of the page of the story a story link points to, trying its
    /// ``StoryLink/lookupOrder`` as ``page(for:)`` does; nil when none matches.
    public func linkedURL(for link: StoryLink) -> LinkedURL? {
        firstFound(for: link) { resolver.linkedURL(for: $0) }
    }

    /// What `find` gives for the first reference of `link`'s lookup order it finds anything for.
    private func firstFound<Found>(for link: StoryLink, _ find: (StoryReference) -> Found?) -> Found? {
        if let found = find(link.reference) { return found }  // the usual case, without making the whole order
        for reference in link.lookupOrder.dropFirst() {
            if let found = find(reference) { return found }
        }
        return nil
    }

    /// `/blog/post` or `/docs/#intro`, the usual shape of a site path, read the way
    /// ``SitePathReference/parse(_:from:baseURL:rootSlug:)`` reads it but without its general
    /// machinery; nil for anything that needs it (a relative path, `.` or `..`, a file,
    /// percent-encoding, a query, whitespace, the base URL). `/` is the story `rootSlug`.
    static func plainRootPath(_ target: String, rootSlug: String) -> SitePathReference? {
        let utf8 = target.utf8
        guard utf8.first == UInt8(ascii: "/"), utf8.dropFirst().first != UInt8(ascii: "/") else { return nil }
        var slug = ""
        var anchor: String?
        var segmentStart: String.Index?
        var endsInFolder = true
        var pathEnd = target.endIndex
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "/"):
                if let start = segmentStart {
                    if !slug.isEmpty { slug += "/" }
                    slug += target[start..<index]
                    segmentStart = nil
                }
                endsInFolder = true
            case UInt8(ascii: "#"):
                pathEnd = index
                let fragment = target[utf8.index(after: index)...]
                anchor = fragment.isEmpty ? nil : String(fragment)
                index = utf8.endIndex
                continue
            case UInt8(ascii: "%"), UInt8(ascii: "."), UInt8(ascii: "?"), UInt8(ascii: "\\"), 0...0x20, 0x7F:
                return nil
            default:
                if segmentStart == nil { segmentStart = index }
                endsInFolder = false
            }
            utf8.formIndex(after: &index)
        }
        if let start = segmentStart {
            if !slug.isEmpty { slug += "/" }
            slug += target[start..<pathEnd]
        }
        if slug.isEmpty { return SitePathReference(reference: .slug(rootSlug), anchor: anchor) }
        return SitePathReference(reference: .slug(endsInFolder ? slug + "/" : slug), anchor: anchor)
    }

    /// The href from this page to `story`'s page, with `#anchor` when one is given; nil when the
    /// story has no page.
    public func href(to story: Story, anchor: String? = nil) -> String? {
        guard let target = resolver.pageURL(of: story) else { return nil }
        return href(toSiteURL: target, anchor: anchor)
    }

    /// The href from this page to `page`, with `#anchor` when one is given; nil when its story
    /// has no page.
    public func href(to page: LinkedPage, anchor: String? = nil) -> String? {
        page.url.map { href(toSiteURL: $0, anchor: anchor) }
    }

    /// The href from this page to the page at `linked`, with `#anchor` when one is given; nil
    /// when its story has no page.
    public func href(to linked: LinkedURL, anchor: String? = nil) -> String? {
        linked.url.map { href(toSiteURL: $0, anchor: anchor) }
    }

    /// The href from this page to a site-relative URL as pages are laid out (`"about/"`, `""`
    /// for home; raw slug text, percent-encoded here: the one place a page's path becomes an
    /// href), with `#anchor` when one is given.
    public func href(toSiteURL target: String, anchor: String? = nil) -> String {
        var url = PercentEncoding.path(target)
        if let anchor, !anchor.isEmpty { url += "#" + anchor }
        return href(toURL: url)
    }

    /// A site-root path (`/assets/x.svg`) made relative to this page; other URLs unchanged. The
    /// path is a URL already, so it is not encoded again.
    public func resolvingSiteRoot(_ url: String) -> String {
        guard url.hasPrefix("/"), !url.hasPrefix("//") else { return url }
        return href(toURL: String(url.dropFirst()))
    }

    /// The href from this page to `url`, a site-relative URL already percent-encoded.
    private func href(toURL url: String) -> String {
        if let absoluteRoot { return absoluteRoot + url }
        return RelativeURL.href(from: encodedPageURL, to: url)
    }

    /// What a link written as a path (a Markdown link, a url link: `/blog/post#intro`,
    /// `../other`, `<base URL>/about`) points to.
    public enum SitePath: Sendable, Hashable {
        /// Not a page of this site: an external URL, a scheme such as `mailto:`, a fragment, a file.
        case external
        /// A page of this site: the href to it from this page.
        case page(href: String)
        /// Names a page of this site that no loaded story has.
        case missing(reference: StoryReference)
    }

    /// Reads `target` as a path into this site (see ``SitePathReference``); the site root is
    /// the resolver's root story.
    public func sitePath(_ target: String) -> SitePath {
        let rootSlug = resolver.rootSlug
        guard let site = Self.plainRootPath(target, rootSlug: rootSlug)
            ?? SitePathReference.parse(target, from: fullSlug, baseURL: baseURL, rootSlug: rootSlug) else {
            return .external
        }
        guard let linked = resolver.linkedURL(for: site.reference), let href = href(to: linked, anchor: site.anchor) else {
            return .missing(reference: site.reference)
        }
        return .page(href: href)
    }
}
