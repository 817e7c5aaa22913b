import SiteOutput
import StoryCrawl
import StoryModel

/// Links across languages, for folder-level translation, where each language has stories of
/// its own: a reference a language's crawl did not reach names a story of another language;
/// it leads to that story's version in the linking language when there is one (the same
/// `group_id`), else to the other language's page (reported as a warning by the link check).
struct LanguageVersions: Sendable {
    private let graphs: [LinkGraph]
    private let plans: [PagePlan]
    /// Per language: its stories by translation group.
    private let groups: [[String: Story]]

    init(plans: [PagePlan], graphs: [LanguageGraph]) {
        self.plans = plans
        self.graphs = graphs.map(\.graph)
        groups = graphs.map { edition in
            var groups: [String: Story] = [:]
            for node in edition.graph.stories {
                if let group = node.story.translationGroup, groups[group] == nil { groups[group] = node.story }
            }
            return groups
        }
    }

    /// The story `reference` names in a language other than `language` (an index into the
    /// plans), as its version in `language` when there is one; nil when no language has it.
    func story(for reference: StoryReference, outside language: Int) -> Story? {
        guard graphs.count > 1 else { return nil }
        for (index, graph) in graphs.enumerated() where index != language {
            guard let story = graph.story(for: reference) else { continue }
            return story.translationGroup.flatMap { groups[language][$0] } ?? story
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
