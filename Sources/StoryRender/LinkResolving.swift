import StoryModel

/// The one seam through which rendering learns where stories live. Rendering never computes a
/// URL itself: it asks the resolver for the story a reference points to and for that story's
/// page, and makes the result relative to the page being rendered (see ``PageLinks``).
public protocol LinkResolving: Sendable {
    /// The story `reference` points to, or nil when no loaded story matches.
    func story(for reference: StoryReference) -> Story?
    /// The site-relative URL of `story`'s page (`""` for home, `"blog/post/"`), or nil when the
    /// story has no page of its own (such as the global navigation story).
    func pageURL(of story: Story) -> String?
    /// The story `reference` points to with its page's URL (see ``pageURL(of:)``), or nil
    /// when no loaded story matches. Resolvers that find both with one lookup say so here.
    func page(for reference: StoryReference) -> LinkedPage?
    /// The URL of the page of the story `reference` points to, found as ``page(for:)`` finds
    /// it; nil when no loaded story matches. Resolvers that find it without the story say so here.
    func linkedURL(for reference: StoryReference) -> LinkedURL?
    /// The `full_slug` of the root story, whose page is the site root: a link to `/` names it,
    /// and breadcrumbs start with it. `home` unless the resolver knows better.
    var rootSlug: String { get }
    /// The site-relative URL of the page of `tag` (`tags/swift/`), or nil when tags have no
    /// pages.
    func tagPageURL(of tag: String) -> String?
}

extension LinkResolving {
    /// `home`, the default entry: for resolvers that know no entries.
    public var rootSlug: String { SitePathReference.defaultRootSlug }

    /// No tag pages: for resolvers of sites without them.
    public func tagPageURL(of tag: String) -> String? { nil }

    /// The story and its page's URL, one after the other.
    public func page(for reference: StoryReference) -> LinkedPage? {
        story(for: reference).map { LinkedPage(story: $0, url: pageURL(of: $0)) }
    }

    /// The URL of the story's page, from ``page(for:)``.
    public func linkedURL(for reference: StoryReference) -> LinkedURL? {
        page(for: reference).map { LinkedURL(url: $0.url) }
    }
}
