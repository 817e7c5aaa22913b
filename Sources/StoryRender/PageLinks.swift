import StoryModel

/// Link resolution from one page: a ``LinkResolving`` plus the URL of the page being rendered,
/// giving hrefs relative to that page.
public struct PageLinks: Sendable {
    /// Where stories live.
    public let resolver: any LinkResolving
    /// The site-relative URL of the page being rendered (`""` for home, `"blog/post/"`).
    public let pageURL: String

    public init(resolver: any LinkResolving, pageURL: String) {
        self.resolver = resolver
        self.pageURL = pageURL
    }

    /// The story `reference` points to, or nil.
    public func story(_ reference: StoryReference) -> Story? {
        resolver.story(for: reference)
    }

    /// The story a story link points to: by UUID when one is given, else by slug (a leading
    /// slash and any `#fragment` are ignored); nil when neither matches.
    public func linkedStory(uuid: String?, slug: String?) -> Story? {
        if let uuid, !uuid.isEmpty, let story = resolver.story(for: .uuid(uuid)) { return story }
        guard var slug, !slug.isEmpty else { return nil }
        if let hash = slug.firstIndex(of: "#") { slug = String(slug[..<hash]) }
        let normalized = Story.normalizedSlug(slug)
        guard !normalized.isEmpty else { return nil }
        return resolver.story(for: .slug(normalized))
    }

    /// The href from this page to `story`'s page, with `#anchor` when one is given; nil when the
    /// story has no page.
    public func href(to story: Story, anchor: String? = nil) -> String? {
        guard let target = resolver.pageURL(of: story) else { return nil }
        return href(toSiteURL: target, anchor: anchor)
    }

    /// The href from this page to a site-relative URL (`"about/"`, `""` for home), with
    /// `#anchor` when one is given.
    public func href(toSiteURL target: String, anchor: String? = nil) -> String {
        guard let anchor, !anchor.isEmpty else { return RelativeURL.href(from: pageURL, to: target) }
        return RelativeURL.href(from: pageURL, to: target + "#" + anchor)
    }

    /// A site-root path (`/assets/x.svg`) made relative to this page; other URLs unchanged.
    public func resolvingSiteRoot(_ url: String) -> String {
        RelativeURL.resolvingSiteRoot(url, from: pageURL)
    }
}
