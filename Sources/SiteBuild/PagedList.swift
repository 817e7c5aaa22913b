import StoryModel
import StoryRender

/// A list of stories shown across pages of `perPage` items (all on one page without it):
/// page 1 at the list's own URL, page N at `<URL>page/N/`.
struct PagedList: Sendable {
    /// Every story of the list, in order.
    let items: [Story]
    let perPage: Int?
    /// The site-relative URL of page 1 (`blog/`, `tags/swift/`).
    let url: String

    /// The same list with the new versions `changed` has in place, in the same places.
    func replacingVersions(_ changed: StoryVersions) -> PagedList {
        var items = self.items
        changed.replace(in: &items)
        return PagedList(items: items, perPage: perPage, url: url)
    }

    /// How many pages the list fills: at least one, even when it is empty.
    var pageCount: Int {
        guard let perPage else { return 1 }
        return max(1, (items.count + perPage - 1) / perPage)
    }

    /// The site-relative URL of page `number` (from 1).
    func pageURL(_ number: Int) -> String {
        Pagination.pageURL(number, firstPageURL: url)
    }

    /// What page `number` shows: its share of the items and, when paginated, its place.
    func listing(onPage number: Int, feedURL: String? = nil) -> PageListing {
        guard let perPage else { return PageListing(children: items, feedURL: feedURL) }
        let start = min((number - 1) * perPage, items.count)
        return PageListing(
            children: Array(items[start..<min(start + perPage, items.count)]),
            pagination: Pagination(current: number, total: pageCount, firstPageURL: url),
            feedURL: feedURL)
    }
}
