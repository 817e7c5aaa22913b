import SiteOutput
import StoryModel
import StoryRender

/// A folder's Atom feed, `<folder>feed.xml`: the first `feedSize` stories of its listing, in
/// the listing's order, with absolute links and the listing's summary field as each entry's
/// summary.
enum FeedFile {
    static func make(for listing: FolderListing, renderer: PageRenderer, baseURL: String, site: JSONObject) -> OutputFile {
        let siteTitle = site["title"]?.stringValue
        let entries = listing.pages.items.prefix(listing.settings.feedSize).map { story in
            AtomFeed.Entry(
                title: story.name,
                url: Sitemap.absoluteURL(renderer.resolver.pageURL(of: story) ?? "", baseURL: baseURL),
                published: story.string("first_published_at"),
                updated: story.string("published_at") ?? story.string("first_published_at"),
                summaryHTML: listing.settings.summaryField.flatMap { renderer.summaryHTML(of: story, field: $0) })
        }
        let feed = AtomFeed(
            title: [listing.startPage.name, siteTitle].compactMap { $0 }.joined(separator: " · "),
            feedURL: Sitemap.absoluteURL(listing.feedURL, baseURL: baseURL),
            siteURL: Sitemap.absoluteURL(listing.pages.url, baseURL: baseURL),
            subtitle: site["description"]?.stringValue, author: siteTitle ?? listing.startPage.name, entries: Array(entries))
        return OutputFile(path: listing.feedURL, text: feed.xml)
    }
}
