import SiteOutput
import StoryCrawl
import StoryModel

/// Links across languages, for folder-level translation, where each language has stories of
/// its own: a reference a language's crawl did not reach names a story of another language;
/// it leads to that story's version in the linking language when there is one (the same
/// `group_id`), else to the other language's page (reported as a warning by the link check).
struct LanguageVersions: Sendable {
    /// Each language's stories by translation group (`group_id`), by UUID: what holds while
    /// the stories keep their heads.
    struct Groups: Sendable {
        fileprivate let uuids: [[String: String]]

        /// The groups of `graphs`' stories, the first story of each group in a language standing
        /// for it. A site of one language has no versions to link, so none are looked for (a
        /// field read from every story: 90 ms at 100,000 stories).
        init(_ graphs: [LinkGraph]) {
            guard graphs.count > 1 else {
                uuids = []
                return
            }
            uuids = graphs.map { graph in
                var groups: [String: String] = [:]
                for node in graph.stories {
                    if let group = node.story.translationGroup { groups.insertIfAbsent(node.story.uuid, forKey: group) }
                }
                return groups
            }
        }
    }

    private let graphs: [LinkGraph]
    private let plans: [PagePlan]
    private let groups: Groups

    /// The links across the languages of `plans` and `graphs`, whose stories' groups are
    /// `groups` (found in `graphs` when not given).
    init(plans: [PagePlan], graphs: [LanguageGraph], groups: Groups? = nil) {
        self.plans = plans
        self.graphs = graphs.map(\.graph)
        self.groups = groups ?? Groups(self.graphs)
    }

    /// The story `reference` names in a language other than `language` (an index into the
    /// plans), as its version in `language` when there is one; nil when no language has it.
    func story(for reference: StoryReference, outside language: Int) -> Story? {
        guard graphs.count > 1 else { return nil }
        for (index, graph) in graphs.enumerated() where index != language {
            guard let story = graph.story(for: reference) else { continue }
            return story.translationGroup.flatMap { groups.uuids[language][$0] }.flatMap { graphs[language].story(uuid: $0) } ?? story
        }
        return nil
    }

    /// The page URL of `story` in whichever language has it.
    func pageURL(of story: Story) -> String? {
        for plan in plans {
            if let location = plan.location(of: story) { return location.url }
        }
        return nil
    }
}
