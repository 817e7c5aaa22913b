import SiteOutput
import StoryCrawl
import StoryModel

/// Which stories get a page, and where: every story reached except the global story, the root
/// story (the first entry) at the site root. Unsafe slugs and two stories on one path are
/// reported as errors.
struct PagePlan: Sendable {
    /// The stories that get a page, in crawl order.
    private(set) var stories: [Story] = []
    /// The global story, whose content every page sees as `global`; it gets no page.
    private(set) var globalStory: Story?
    /// Problems placing the pages.
    private(set) var problems: [Diagnostic] = []
    private var locations: [String: PageLocation] = [:]

    init(graph: LinkGraph, global: String) {
        let globalKey = SlugLookup.key(global)
        var owners: [String: Story] = [:]
        for node in graph.stories {
            let story = node.story
            let key = SlugLookup.key(story.fullSlug)
            if key == globalKey || story.uuid == global {
                globalStory = story
                continue
            }
            let location: PageLocation
            do {
                location = try PageLocation(fullSlug: story.fullSlug, isHome: story.uuid == graph.root?.uuid)
            } catch {
                problems.append(.error(story.fullSlug, "\(error); rename the story"))
                continue
            }
            if let owner = owners[location.filePath] {
                problems.append(.error(
                    location.filePath,
                    "two stories map to this page: '\(owner.fullSlug)' and '\(story.fullSlug)'; rename one of them"))
                continue
            }
            owners[location.filePath] = story
            locations[story.uuid] = location
            stories.append(story)
        }
    }

    /// Where `story`'s page is, or nil when it has none.
    func location(of story: Story) -> PageLocation? {
        locations[story.uuid]
    }
}
