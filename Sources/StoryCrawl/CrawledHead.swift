import StoryModel

/// What a crawl reads of a story's head (every key but `content`): the `full_slug` (which
/// references by slug resolve to, which folder lists the story, where relative links start),
/// the numeric `id` (which references by id resolve to) and the folder it is the start page of
/// (from `is_startpage` and `is_folder`: which stories it lists). Any other key of the head,
/// such as `name`, `position`, `tag_list` or the dates, moves no edge of a crawl without
/// collections: a story that changed only those keeps its place in the graph.
struct CrawledHead: Equatable {
    var fullSlug: String
    var id: Int?
    var startPageFolder: String?

    init(fullSlug: String, id: Int?, startPageFolder: String?) {
        self.fullSlug = fullSlug
        self.id = id
        self.startPageFolder = startPageFolder
    }

    init(of story: Story) {
        self.init(fullSlug: story.fullSlug, id: story.id, startPageFolder: story.startPageFolder)
    }

    /// The folder whose listing lists the story (see ``StoryModel/Story/listingFolder``).
    var listingFolder: String {
        Story.listingFolder(ofSlug: fullSlug, startPageFolder: startPageFolder)
    }
}
