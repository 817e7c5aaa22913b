import ParallelWork
import SiteOutput
import StoryCrawl
import StoryModel
import StoryRender

/// The site model: which pages exist, where, and what each lists. Every story reached gets a
/// page except the global story; the root story (the first entry) is at the site root, a
/// start page at its folder's URL. A start page's listing adds its further pages
/// (`blog/page/2/`); tags get pages when the theme has a tag template. Unsafe slugs and two
/// pages on one path are reported as errors.
struct PagePlan: Sendable {
    /// The stories that get a page, in crawl order.
    private(set) var stories: [Story] = []
    /// Every page, in order: each story's, its listing's further pages right after it, then
    /// the tag pages by slug and the page of every tag.
    private(set) var pages: [PlannedPage] = []
    /// The global story, whose content every page sees as `global`; it gets no page.
    private(set) var globalStory: Story?
    /// Problems placing the pages, and settings that show nothing.
    private(set) var problems: [Diagnostic] = []
    /// The listing of each reached start page, by its UUID.
    private(set) var listings: [StoryKey: FolderListing] = [:]
    /// The start pages whose folders have a feed, in crawl order.
    private(set) var feeds: [FolderListing] = []
    /// The tags with pages; nil when the theme has no `pages/tag` template.
    private(set) var tags: TagIndex?
    /// The stories of each named collection, in name order.
    private(set) var collections: [(name: String, stories: [Story])] = []
    /// The language of the pages, when the site has languages.
    let language: SiteLanguage?
    private var locations: [StoryKey: PageLocation] = [:]
    /// The URL of ``location(of:)`` for each story of the graph planned, by its position in the
    /// graph's stories (nil for none): links and backlinks find a story's position, and its
    /// page from that.
    private var urlsByPosition: [String?] = []
    private let tagListing: ListingSettings
    /// Whether a collection's selection reads content (see ``StoryCrawl/StorySelection/readsContent``).
    private let collectionsReadContent: Bool

    /// Plans the pages of `graph` in `language` (nil for a site without languages) with
    /// `settings`; `tagPages` and `tagIndex` say whether the theme has `pages/tag` and
    /// `pages/tags`.
    init(graph: LinkGraph, settings: SiteSettings, language: SiteLanguage? = nil, tagPages: Bool = false, tagIndex: Bool = false) {
        self.language = language
        tagListing = settings.listings[ListingSettings.tagsKey] ?? .standard
        collectionsReadContent = settings.collections.contains { $0.selection.readsContent }
        var owners = PageOwners(expecting: graph.stories.count)
        let storyLocations = placeStories(of: graph, global: settings.global, jobs: settings.jobs, owners: &owners)
        let hasPage = { [locations] (story: Story) in locations[story.key] != nil }
        for (story, location) in zip(stories, storyLocations) {
            guard let folder = story.startPageFolder else { continue }
            let listing = FolderListing(
                startPage: story, url: location.url, settings: settings.listings[folder] ?? .standard, graph: graph, hasPage: hasPage)
            listings[story.key] = listing
            if listing.settings.feed { feeds.append(listing) }
        }
        pages.reserveCapacity(stories.count)
        for (story, location) in zip(stories, storyLocations) {
            pages.append(PlannedPage(kind: .story(story), location: location, key: keyPrefix + story.uuid))
            guard let listing = listings[story.key] else { continue }
            for index in 1..<listing.pages.pageCount {
                pages.append(planned(
                    .listingPage(story, number: index + 1), url: listing.pages.pageURL(index + 1), key: "\(keyPrefix)\(story.uuid)/page/\(index + 1)"))
            }
        }
        if tagPages { planTags(owners: &owners, index: tagIndex) }
        for page in pages where page.kind.isGenerated { claim(page, owners: &owners) }
        collections = settings.collections.map { ($0.name, $0.selection.select(from: stories)) }
        checkListings(settings)
    }

    /// Whether no listing or collection sorts or selects by content: then stories that keep
    /// their heads keep their pages, places and tags, whatever their content says.
    var readsHeadsAlone: Bool {
        !collectionsReadContent && !tagListing.order.readsContent && !listings.values.contains { $0.settings.order.readsContent }
    }

    /// Puts the new versions `changed` has of some of the plan's stories in place of those it was
    /// made from, and returns true, when that is sure to give what planning them would: each kept its head (so
    /// its page, place and tags), and no listing or collection sorts or selects by content.
    /// False, with the plan as it was, otherwise: the pages must be planned again. In place: a
    /// plan held once is not copied, however large.
    mutating func update(with changed: StoryVersions) -> Bool {
        guard changed.keptHeads, readsHeadsAlone else { return false }
        changed.replace(in: &stories)
        for index in pages.indices {
            if let story = pages[index].kind.story, let version = changed.newVersion(of: story) { pages[index].kind = pages[index].kind.showing(version) }
        }
        globalStory = globalStory.map(changed.current)
        for (key, listing) in listings { listings[key] = listing.replacingVersions(changed) }
        feeds = feeds.map { $0.replacingVersions(changed) }
        tags?.replaceVersions(changed)
        for index in collections.indices { changed.replace(in: &collections[index].stories) }
        return true
    }

    /// Where `story`'s page is, or nil when it has none.
    func location(of story: Story) -> PageLocation? {
        locations[story.key]
    }

    /// The URL of the page of the story at `position` in the stories of the graph planned (or
    /// of one brought up to date from it, which keeps their positions); nil when it has none.
    func url(ofStoryAt position: Int) -> String? {
        urlsByPosition.indices.contains(position) ? urlsByPosition[position] : nil
    }

    /// The site-relative URL of `tag`'s page, or nil when tags have no pages or this one has none.
    func tagPageURL(of tag: String) -> String? {
        tags?.tag(named: tag)?.pages(perPage: nil, under: homeURL).url
    }

    /// What the plan's page paths start with: `""`, or `de/` (field-level translation).
    private var urlPrefix: String { language?.urlPrefix ?? "" }
    /// Where the plan's language's home is, and its tag pages below it: `""`, or `de/`.
    private var homeURL: String { language?.homeURL ?? "" }

    /// What the build cache's page keys start with: nothing for the default language (so a
    /// site's cache survives adding languages), `de:` for another.
    private var keyPrefix: String { language.map { $0.isDefault ? "" : $0.code + ":" } ?? "" }

    /// What `page` lists, where it stands in its listing, and its folder's feed.
    func listing(of page: PlannedPage) -> PageListing {
        switch page.kind {
        case .story(let story):
            if let listing = listings[story.key] { return listing.pages.listing(onPage: 1, feedURL: feedURL(of: listing)) }
            let folder = story.listingFolder
            let feed = feeds.first { $0.startPage.startPageFolder == folder }.flatMap(feedURL(of:))
            return PageListing(feedURL: feed)
        case .listingPage(let story, let number):
            let listing = listings[story.key]!
            return listing.pages.listing(onPage: number, feedURL: feedURL(of: listing))
        case .tag(let slug, let number):
            return tags!.tag(slug: slug)!.pages(perPage: tagListing.perPage, under: homeURL).listing(onPage: number)
        case .tagIndex:
            return PageListing()
        }
    }

    /// The site-relative URL of `listing`'s feed, when the folder has one (a base URL set).
    private func feedURL(of listing: FolderListing) -> String? {
        feeds.contains { $0.startPage.uuid == listing.startPage.uuid } ? listing.feedURL : nil
    }

    // MARK: Planning

    /// Places the stories of `graph` (see ``stories``, ``locations``); returns the location of
    /// each story placed, in the order of ``stories``, for the pages to be made in it without a
    /// lookup each.
    private mutating func placeStories(of graph: LinkGraph, global: String, jobs: Int, owners: inout PageOwners) -> [PageLocation] {
        let globalKey = SlugLookup.key(global), globalStoryKey = StoryKey(global), rootKey = graph.root?.key
        // Each story's location on `jobs` threads (percent-encoding and checking its path is the
        // costly part), with whether it is the global story and its first position in the graph;
        // then the pages are claimed in crawl order, on one thread.
        let plan = self
        let placed = ParallelWork.map(count: graph.stories.count, jobs: jobs) { index in
            let story = graph.stories[index].story
            return (
                location: Result { () throws(UnsafeSlugError) in try plan.location(of: story, isHome: story.key == rootKey) },
                isGlobal: story.key == globalStoryKey || SlugLookup.key(story.fullSlug) == globalKey,
                firstPosition: graph.position(of: story))
        }
        urlsByPosition = Array(repeating: nil, count: graph.stories.count)
        locations.reserveCapacity(graph.stories.count)
        stories.reserveCapacity(graph.stories.count)
        var storyLocations: [PageLocation] = []
        storyLocations.reserveCapacity(graph.stories.count)
        var placedTwice = false
        for (position, (node, found)) in zip(graph.stories, placed).enumerated() {
            let story = node.story
            if found.isGlobal {
                globalStory = story
                continue
            }
            let location: PageLocation
            switch found.location {
            case .success(let found):
                location = found
            case .failure(let error):
                problems.append(.error(story.fullSlug, "\(error); rename the story"))
                continue
            }
            if let owner = owners.claim(location.filePath, by: .story(story.fullSlug)) {
                problems.append(.error(
                    location.filePath, "two stories map to this page: \(owner) and '\(story.fullSlug)'; rename one of them"))
                continue
            }
            if locations.updateValue(location, forKey: story.key) != nil { placedTwice = true }
            // A UUID reached twice is known by its first position, as in the graph's lookups,
            // with the location last given for its key, as `locations` has it; its later
            // positions (backlinks are found by position) have that location too.
            urlsByPosition[position] = location.url
            if let first = found.firstPosition, first != position { urlsByPosition[first] = location.url }
            stories.append(story)
            storyLocations.append(location)
        }
        // A UUID placed twice has the location last given for its key on each of its pages.
        return placedTwice ? stories.map { locations[$0.key]! } : storyLocations
    }

    /// Where `story`'s page goes: its path in the plan's language (``Story/path(in:)``, with
    /// field-level translation), or for a start page its folder, as in Storyblok
    /// (`docs/overview`, marked `is_startpage`, is at `docs/`); under the language's prefix.
    /// The home page is the language's home.
    private func location(of story: Story, isHome: Bool) throws(UnsafeSlugError) -> PageLocation {
        if isHome { return homeURL.isEmpty ? try PageLocation(fullSlug: story.fullSlug, isHome: true) : PageLocation(generatedURL: homeURL) }
        var path = language.map { $0.strategy == .field ? story.path(in: $0.code) : story.fullSlug } ?? story.fullSlug
        if path == story.fullSlug, let folder = story.startPageFolder { path = folder }
        return try PageLocation(fullSlug: urlPrefix + path, isHome: false)
    }

    /// The tag pages, and with `index` the page of every tag. Stories at `tags/` would mix
    /// with them, so they are errors; tags that make no URL are warnings.
    private mutating func planTags(owners: inout PageOwners, index: Bool) {
        let tags = TagIndex(stories: stories, order: tagListing.order)
        self.tags = tags
        for story in stories where location(of: story)!.url.hasPrefix(homeURL + "tags/") {
            problems.append(.error(
                story.fullSlug,
                "the story's page would be at '\(location(of: story)!.url)', among the tag pages (Templates/pages/tag.mustache exists); "
                    + "rename the story or remove the tag template"))
        }
        for tag in tags.tags {
            let list = tag.pages(perPage: tagListing.perPage, under: homeURL)
            for number in 1...list.pageCount {
                pages.append(planned(.tag(slug: tag.slug, number: number), url: list.pageURL(number), key: list.pageURL(number)))
            }
        }
        if index { pages.append(planned(.tagIndex, url: homeURL + "tags/", key: homeURL + "tags/")) }
        for (tag, story) in tags.unnamed {
            problems.append(.warning(
                story, "the tag '\(tag)' has no letter or digit to make a page URL from; it gets no tag page"))
        }
    }

    private func planned(_ kind: PlannedPage.Kind, url: String, key: String) -> PlannedPage {
        PlannedPage(kind: kind, location: PageLocation(generatedURL: url), key: key)
    }

    /// Records a generated page's file, reporting the story already there (a story among the
    /// tag pages is reported once, by ``planTags(owners:index:)``).
    private mutating func claim(_ page: PlannedPage, owners: inout PageOwners) {
        if let owner = owners.claim(page.location.filePath, by: .page(page.kind.description)), !page.kind.isTagPage {
            problems.append(.error(
                page.location.filePath, "two pages map to this file: \(owner) and \(page.kind.description); rename the story"))
        }
    }

    /// Listings and feeds that nothing shows (settings for a folder whose start page was not
    /// reached, feeds without the base URL their absolute links need), and stories whose page
    /// would be a folder where a feed file goes.
    private mutating func checkListings(_ settings: SiteSettings) {
        let listed = Set(listings.values.compactMap(\.startPage.startPageFolder))
        for folder in settings.listings.keys.sorted() where folder != ListingSettings.tagsKey && !listed.contains(folder) {
            problems.append(.warning(
                SiteSettings.configurationFile,
                "'listings.\(folder)': no start page of the folder '\(folder)' was reached, so nothing shows this listing"))
        }
        if settings.baseURL == nil {
            for listing in feeds {
                problems.append(.warning(
                    SiteSettings.configurationFile,
                    "'listings.\(listing.startPage.startPageFolder ?? "")': no feed written: feed readers need absolute links; set baseURL or --base-url"))
            }
            feeds = []
        }
        for listing in feeds {
            for story in stories where location(of: story)!.url.hasPrefix(listing.feedURL + "/") {
                problems.append(.error(
                    story.fullSlug, "the story's page would be at '\(location(of: story)!.url)', where the feed '\(listing.feedURL)' is written; rename the story"))
            }
        }
    }
}

extension PagePlan {
    /// Pages of different languages on one file (a default-language story slugged `de/about`
    /// beside the German `about`), each an error naming both.
    static func collisions(among plans: [PagePlan]) -> [Diagnostic] {
        guard plans.count > 1 else { return [] }
        /// A page as messages name it: `'blog/post' (de)`.
        func name(_ page: (plan: Int, page: Int)) -> String {
            plans[page.plan].pages[page.page].kind.description + (plans[page.plan].language.map { " (\($0.code))" } ?? "")
        }
        // The first page of each path, by plan and index: names are made only for a message.
        var owners: [String: (plan: Int, page: Int)] = [:]
        owners.reserveCapacity(plans.reduce(0) { $0 + $1.pages.count })
        var problems: [Diagnostic] = []
        for (planIndex, plan) in plans.enumerated() {
            for index in plan.pages.indices {
                let path = plan.pages[index].location.filePath
                guard let owner = owners[path] else {
                    owners[path] = (planIndex, index)
                    continue
                }
                guard owner.plan != planIndex else { continue }
                problems.append(.error(path, "two pages map to this file: \(name(owner)) and \(name((planIndex, index))); rename one of them"))
            }
        }
        return problems
    }
}

/// One page of the site.
struct PlannedPage: Sendable {
    enum Kind: Sendable, CustomStringConvertible {
        /// A story's own page (page 1 of its listing, when it has one).
        case story(Story)
        /// Page `number` (2 or more) of a start page's listing.
        case listingPage(Story, number: Int)
        /// Page `number` of the tag with this slug.
        case tag(slug: String, number: Int)
        /// The page of every tag.
        case tagIndex

        /// Whether storysite makes the page rather than a story.
        var isGenerated: Bool {
            if case .story = self { return false }
            return true
        }

        /// The story the page shows, when it shows one.
        var story: Story? {
            switch self {
            case .story(let story), .listingPage(let story, _): story
            case .tag, .tagIndex: nil
            }
        }

        var isTagPage: Bool {
            switch self {
            case .tag, .tagIndex: true
            case .story, .listingPage: false
            }
        }

        var description: String {
            switch self {
            case .story(let story): "'\(story.fullSlug)'"
            case .listingPage(let story, let number): "page \(number) of the listing of '\(story.fullSlug)'"
            case .tag(let slug, let number): "the tag page '\(slug)'" + (number > 1 ? " (page \(number))" : "")
            case .tagIndex: "the page of every tag"
            }
        }
    }

    var kind: Kind
    var location: PageLocation

    /// How messages name the page: the story's `full_slug`, or the generated page's URL.
    var name: String {
        if case .story(let story) = kind { return story.fullSlug }
        return location.url
    }
    /// What the build cache records the page under: a story's UUID, `<uuid>/page/2`, a tag
    /// page's URL.
    var key: String
}

/// Who has each output file, so a second page on a path is reported with the first.
private struct PageOwners {
    /// What owns a page: a story, by its `full_slug`, or a generated page, by its description.
    /// Only named in a message when two claim one page, so a story's is not formatted before.
    enum Owner: CustomStringConvertible {
        case story(String)
        case page(String)

        var description: String {
            switch self {
            case .story(let fullSlug): "'\(fullSlug)'"
            case .page(let description): description
            }
        }
    }

    private var owners: [String: Owner] = [:]

    /// Owners with room for `count` paths.
    init(expecting count: Int) {
        owners.reserveCapacity(count)
    }

    /// Records `owner` for `path`; returns the earlier owner when there is one, which keeps it.
    /// One lookup of the path when it is new, as it nearly always is.
    mutating func claim(_ path: String, by owner: Owner) -> Owner? {
        guard let earlier = owners.updateValue(owner, forKey: path) else { return nil }
        owners[path] = earlier
        return earlier
    }
}
