import ParallelWork
import StoryCrawl
import StoryModel

/// The fingerprint of everything a page's rendering reads, so a rebuild renders again only the
/// pages whose fingerprint changed: the build key (templates, settings, version), the global
/// story, the story's own JSON and URL, every reference it makes with the target's identity and
/// content (templates may show a related story's content), its breadcrumbs (the root story and
/// its folders' start pages), and its backlinks' names and URLs.
struct BuildPageFingerprints: Sendable {
    private let graph: LinkGraph
    private let plan: PagePlan
    private let base: String

    init(graph: LinkGraph, plan: PagePlan, key: String) {
        self.graph = graph
        self.plan = plan
        var base = Fingerprint()
        base.combine(key)
        base.combine(plan.globalStory?.digest ?? "-")
        self.base = base.hex
    }

    /// The fingerprints of `stories`' pages, in order, computed on at most `jobs` threads.
    func fingerprints(of stories: [Story], jobs: Int) -> [String] {
        ParallelWork.map(count: stories.count, jobs: jobs) { fingerprint(of: stories[$0]) }
    }

    /// The fingerprint of `story`'s page.
    func fingerprint(of story: Story) -> String {
        var fingerprint = Fingerprint()
        fingerprint.combine(base)
        fingerprint.combine(story.digest)
        fingerprint.combine(plan.location(of: story)?.url ?? "-")
        for edge in graph.edges(from: story.uuid) {
            fingerprint.combine(edge.fieldPath)
            fingerprint.combine(edge.kind.rawValue)
            fingerprint.combine(edge.reference.description)
            fingerprint.combine(edge.anchor ?? "-")
            fingerprint.combine(edge.cachedURL ?? "-")
            combineIdentity(of: edge.target.flatMap { graph.story(uuid: $0) }, content: true, into: &fingerprint)
        }
        combineIdentity(of: graph.story(for: .slug(graph.rootSlug)), content: false, into: &fingerprint)
        let segments = story.fullSlug.split(separator: "/")
        if segments.count > 1 {
            for depth in 1..<segments.count {
                combineIdentity(of: graph.story(for: .slug(segments[..<depth].joined(separator: "/") + "/")), content: false, into: &fingerprint)
            }
        }
        for uuid in graph.backlinks(to: story.uuid) {
            combineIdentity(of: graph.story(uuid: uuid), content: false, into: &fingerprint)
        }
        return fingerprint.hex
    }

    /// A story's UUID, name, slug and page URL, and with `content` its digest; `-` for none.
    private func combineIdentity(of story: Story?, content: Bool, into fingerprint: inout Fingerprint) {
        guard let story else { return fingerprint.combine("-") }
        fingerprint.combine(story.uuid)
        fingerprint.combine(story.name)
        fingerprint.combine(story.fullSlug)
        fingerprint.combine(plan.location(of: story)?.url ?? "-")
        if content { fingerprint.combine(story.digest) }
    }
}
