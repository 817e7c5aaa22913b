import StoryCrawl
import StoryModel

/// What one reached start page lists: the stories of its folder (the crawl's `listing` edges)
/// that have a page, in the listing's order, on as many pages as ``ListingSettings/perPage``
/// makes; page 1 is the start page itself.
struct FolderListing: Sendable {
    let startPage: Story
    let settings: ListingSettings
    let pages: PagedList

    /// The listing of `startPage`, whose page is at the site-relative `url`.
    init(startPage: Story, url: String, settings: ListingSettings, graph: LinkGraph, hasPage: (Story) -> Bool) {
        self.startPage = startPage
        self.settings = settings
        let listed = graph.listing(of: startPage.uuid).compactMap(graph.story(uuid:)).filter(hasPage)
        pages = PagedList(items: settings.order.sorted(listed), perPage: settings.perPage, url: url)
    }

    private init(startPage: Story, settings: ListingSettings, pages: PagedList) {
        self.startPage = startPage
        self.settings = settings
        self.pages = pages
    }

    /// The same listing with the new versions `changed` has in place; each must sort as the one
    /// it replaces.
    func replacingVersions(_ changed: StoryVersions) -> FolderListing {
        FolderListing(startPage: changed.current(startPage), settings: settings, pages: pages.replacingVersions(changed))
    }

    /// The site-relative URL of the folder's feed.
    var feedURL: String { pages.url + "feed.xml" }
}
