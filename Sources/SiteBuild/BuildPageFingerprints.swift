import ParallelWork
import StoryCrawl
import StoryModel

/// The fingerprint of everything a page's rendering reads, so a rebuild renders again only the
/// pages whose fingerprint changed: the build key (templates, settings, version), the global
/// story, the story's own JSON and URL, every reference it makes with the target's identity and
/// content (templates may show a related story's content), its breadcrumbs (the root story and
/// its folders' start pages), and its backlinks' names and URLs.
struct BuildPageFingerprints: Sendable {
    /// What a page may show of another story: its identity (UUID, name, slug and page URL,
    /// hashed together) and its digest.
    private struct Identity: Sendable {
        var identity: String
        var digest: String
    }

    private let graph: LinkGraph
    private let plan: PagePlan
    private let base: String
    /// Every story of the graph's, by UUID, hashed once rather than for every page that shows it.
    private let identities: [String: Identity]

    /// Prepares the fingerprints of `graph`'s pages, hashing its stories on at most `jobs` threads.
    init(graph: LinkGraph, plan: PagePlan, key: String, jobs: Int) {
        self.graph = graph
        self.plan = plan
        var base = Fingerprint()
        base.combine(key)
        base.combine(plan.globalStory?.digest ?? "-")
        self.base = base.hex
        let stories = graph.stories
        let identities = ParallelWork.map(count: stories.count, jobs: jobs) { index in
            let story = stories[index].story
            var identity = Fingerprint()
            identity.combine(story.uuid)
            identity.combine(story.name)
            identity.combine(story.fullSlug)
            identity.combine(plan.location(of: story)?.url ?? "-")
            return Identity(identity: identity.hex, digest: story.digest)
        }
        self.identities = Dictionary(zip(stories.map(\.story.uuid), identities), uniquingKeysWith: { first, _ in first })
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
            combineIdentity(of: edge.target, content: true, into: &fingerprint)
        }
        combineIdentity(of: graph.story(for: .slug(graph.rootSlug))?.uuid, content: false, into: &fingerprint)
        let segments = story.fullSlug.split(separator: "/")
        if segments.count > 1 {
            for depth in 1..<segments.count {
                let folder = graph.story(for: .slug(segments[..<depth].joined(separator: "/") + "/"))
                combineIdentity(of: folder?.uuid, content: false, into: &fingerprint)
            }
        }
        for uuid in graph.backlinks(to: story.uuid) {
            combineIdentity(of: uuid, content: false, into: &fingerprint)
        }
        return fingerprint.hex
    }

    /// The identity of the story with UUID `uuid`, and with `content` its digest; `-` for a
    /// story the graph does not have.
    private func combineIdentity(of uuid: String?, content: Bool, into fingerprint: inout Fingerprint) {
        guard let uuid, let story = identities[uuid] else { return fingerprint.combine("-") }
        fingerprint.combine(story.identity)
        if content { fingerprint.combine(story.digest) }
    }
}
