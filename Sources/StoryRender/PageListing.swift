import StoryModel

/// What a page shows besides its own story: the stories it lists (one page's worth, when the
/// listing is paginated), where it stands among the listing's pages, its folder's feed, and
/// its versions in the site's languages. The site model decides all of it; rendering only
/// prepares it for the templates.
public struct PageListing: Sendable {
    /// `page.children`; nil when the page lists nothing.
    public var children: [Story]?
    /// `page.pagination`, when the listing is split into pages.
    public var pagination: Pagination?
    /// `page.feed`: the site-relative URL of the folder's Atom feed.
    public var feedURL: String?
    /// `page.translations`: the page in every language it exists in, in the site's order of
    /// languages; empty for a site without languages.
    public var translations: [PageTranslation]

    public init(children: [Story]? = nil, pagination: Pagination? = nil, feedURL: String? = nil, translations: [PageTranslation] = []) {
        self.children = children
        self.pagination = pagination
        self.feedURL = feedURL
        self.translations = translations
    }
}

/// One page's place in a paginated listing whose page 1 is at `firstPageURL` and page N at
/// `<firstPageURL>page/N/`.
public struct Pagination: Sendable, Equatable {
    /// The page's number, from 1.
    public var current: Int
    /// How many pages the listing has.
    public var total: Int
    /// The site-relative URL of page 1 (`blog/`).
    public var firstPageURL: String

    public init(current: Int, total: Int, firstPageURL: String) {
        self.current = current
        self.total = total
        self.firstPageURL = firstPageURL
    }

    /// The site-relative URL of page `number` (from 1).
    public func pageURL(_ number: Int) -> String {
        Self.pageURL(number, firstPageURL: firstPageURL)
    }

    /// The site-relative URL of page `number` (from 1) of a listing whose page 1 is `firstPageURL`.
    public static func pageURL(_ number: Int, firstPageURL: String) -> String {
        number == 1 ? firstPageURL : firstPageURL + "page/\(number)/"
    }
}

/// A tag's page (`tags/<slug>/`), rendered with `pages/tag`.
public struct TagPage: Sendable {
    /// The tag as written on the first story that has it.
    public var name: String
    public var slug: String
    /// How many stories have the tag.
    public var count: Int
    /// The page's site-relative URL (`tags/swift/`, `tags/swift/page/2/`).
    public var url: String
    /// The stories with the tag on this page, and the pagination.
    public var listing: PageListing

    public init(name: String, slug: String, count: Int, url: String, listing: PageListing) {
        self.name = name
        self.slug = slug
        self.count = count
        self.url = url
        self.listing = listing
    }
}

/// A tag as the page of every tag (`tags/`, rendered with `pages/tags`) lists it.
public struct TagSummary: Sendable {
    public var name: String
    public var slug: String
    /// The site-relative URL of the tag's page.
    public var url: String
    public var count: Int

    public init(name: String, slug: String, url: String, count: Int) {
        self.name = name
        self.slug = slug
        self.url = url
        self.count = count
    }
}

/// One language's version of a page, as `page.translations` lists it.
public struct PageTranslation: Sendable, Equatable {
    /// The language code (`de`).
    public var lang: String
    /// The story's name in that language.
    public var name: String
    /// The version's site-relative URL.
    public var url: String
    /// Whether it is the page being rendered.
    public var current: Bool

    public init(lang: String, name: String, url: String, current: Bool) {
        self.lang = lang
        self.name = name
        self.url = url
        self.current = current
    }
}
