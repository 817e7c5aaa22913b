import StoryCrawl
import StoryModel

/// How a folder's start page lists its folder (`"listings": {"blog/": {...}}` in
/// `storysite.json`), and how tag pages list their stories (the `tags/` listing).
public struct ListingSettings: Sendable, Hashable {
    /// The order of `page.children` and of the feed.
    public var order: StoryOrder
    /// Items per page: with it, further pages are written at `<folder>page/2/`, … .
    public var perPage: Int?
    /// Whether the folder gets an Atom feed at `<folder>feed.xml` (with a base URL).
    public var feed: Bool
    /// The most entries the feed holds.
    public var feedSize: Int
    /// The root block field whose HTML is each feed entry's summary (`excerpt` for
    /// `"summary": "content.excerpt"`).
    public var summaryField: String?

    public init(order: StoryOrder = .standard, perPage: Int? = nil, feed: Bool = false, feedSize: Int = 20, summaryField: String? = nil) {
        self.order = order
        self.perPage = perPage
        self.feed = feed
        self.feedSize = feedSize
        self.summaryField = summaryField
    }

    /// What a folder without settings gets: Storyblok's `position`, then `full_slug`; one page.
    public static let standard = ListingSettings()

    /// The folder key of tag pages' settings.
    public static let tagsKey = "tags/"

    /// Text for the build key: a change of any setting means a full build.
    var fingerprintText: String {
        "\(order) \(perPage.map(String.init) ?? "-") \(feed) \(feedSize) \(summaryField ?? "-")"
    }
}

/// A named collection any page can show as `collections.<name>`.
public struct CollectionSettings: Sendable, Hashable {
    public var name: String
    /// Which stories, in which order, how many.
    public var selection: StorySelection

    public init(name: String, selection: StorySelection) {
        self.name = name
        self.selection = selection
    }

    /// Text for the build key: a change of any setting means a full build.
    var fingerprintText: String {
        "\(name) \(selection.folder) \(selection.recursive) \(selection.component ?? "-") \(selection.tag ?? "-") \(selection.order) \(selection.limit.map(String.init) ?? "-")"
    }
}
