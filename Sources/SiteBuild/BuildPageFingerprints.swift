import ParallelWork
import StoryCrawl
import StoryModel
import StoryRender

/// The fingerprint of everything a page's rendering reads, so a rebuild renders again only the
/// pages whose fingerprint changed: the build key (templates, settings, version), the global
/// story, the story's own JSON and URL, every reference it makes with the target's identity and
/// content (templates may show a related story's content), its breadcrumbs (the root story and
/// its folders' start pages, `story.parent` among them), its backlinks' names and URLs, what it
/// lists (with each listed story's content) and the stories of every named collection, which
/// every page sees.
struct BuildPageFingerprints: Sendable {
    /// What a page may show of another story: its identity (UUID, name, slug, full slug and
    /// page URL, hashed together), and its content as shown: its digest with the identities of
    /// the stories its content links to, and for those it relates to, their content too and the
    /// identities of theirs (relations show two levels deep; see `BlockPreparation`).
    private struct Identity: Sendable {
        var identity: String
        var shown: String
    }

    private let graph: LinkGraph
    private let plan: PagePlan
    /// The story another language has for a reference this graph does not know (links across
    /// languages, see ``LanguageVersions``).
    private let elsewhere: @Sendable (StoryReference) -> Story?
    private let base: String
    /// Every story of the graph's, by UUID, hashed once rather than for every page that shows it.
    private let identities: [String: Identity]

    /// Prepares the fingerprints of `graph`'s pages, hashing its stories on at most `jobs` threads.
    init(graph: LinkGraph, plan: PagePlan, key: String, jobs: Int, elsewhere: @escaping @Sendable (StoryReference) -> Story? = { _ in nil }) {
        self.graph = graph
        self.plan = plan
        self.elsewhere = elsewhere
        let stories = graph.stories
        let names = ParallelWork.map(count: stories.count, jobs: jobs) { index in
            let story = stories[index].story
            var identity = Fingerprint()
            identity.combine(story.uuid)
            identity.combine(story.name)
            identity.combine(story.slug)
            identity.combine(story.fullSlug)
            identity.combine(plan.location(of: story)?.url ?? "-")
            return (identity: identity.hex, digest: story.digest)
        }
        let named = Dictionary(zip(stories.map(\.story.uuid), names), uniquingKeysWith: { first, _ in first })
        func identity(of uuid: String?) -> String { uuid.flatMap { named[$0]?.identity } ?? "-" }
        let identities = ParallelWork.map(count: stories.count, jobs: jobs) { index in
            let uuid = stories[index].story.uuid
            var shown = Fingerprint()
            shown.combine(named[uuid]?.digest ?? "-")
            for edge in graph.references(from: uuid) {
                shown.combine(identity(of: edge.target))
                guard edge.kind == .relation, let target = edge.target else { continue }
                shown.combine(named[target]?.digest ?? "-")
                for inner in graph.references(from: target) { shown.combine(identity(of: inner.target)) }
            }
            return Identity(identity: named[uuid]?.identity ?? "-", shown: shown.hex)
        }
        let byUUID = Dictionary(zip(stories.map(\.story.uuid), identities), uniquingKeysWith: { first, _ in first })
        self.identities = byUUID
        var base = Fingerprint()
        base.combine(key)
        base.combine(plan.globalStory.flatMap { byUUID[$0.uuid]?.shown } ?? plan.globalStory?.digest ?? "-")
        for collection in plan.collections {
            base.combine(collection.name)
            for story in collection.stories { Self.combine(byUUID[story.uuid], content: true, into: &base) }
        }
        self.base = base.hex
    }

    /// The fingerprints of `pages`, each with what it lists, in order, computed on at most
    /// `jobs` threads.
    func fingerprints(of pages: [PlannedPage], listings: [PageListing], jobs: Int) -> [String] {
        ParallelWork.map(count: pages.count, jobs: jobs) { fingerprint(of: pages[$0], listing: listings[$0]) }
    }

    /// The fingerprint of `page`, which lists `listing`: for a story's page (or a further page
    /// of its listing) everything its story shows; for a tag page its tag; for the page of
    /// every tag, every tag. Then what it lists, with each listed story's content.
    func fingerprint(of page: PlannedPage, listing: PageListing) -> String {
        var fingerprint = Fingerprint()
        fingerprint.combine(base)
        fingerprint.combine(page.location.url)
        switch page.kind {
        case .story(let story), .listingPage(let story, _):
            combine(story, into: &fingerprint)
        case .tag(let slug, _):
            fingerprint.combine(plan.tags?.tag(slug: slug)?.name ?? "-")
        case .tagIndex:
            for tag in plan.tags?.tags ?? [] {
                fingerprint.combine(tag.name)
                fingerprint.combine(String(tag.stories.count))
            }
        }
        for story in listing.children ?? [] { combineIdentity(of: story.uuid, content: true, into: &fingerprint) }
        fingerprint.combine(listing.pagination.map { "\($0.current)/\($0.total)" } ?? "-")
        fingerprint.combine(listing.feedURL ?? "-")
        for translation in listing.translations {
            fingerprint.combine("\(translation.lang) \(translation.url) \(translation.name) \(translation.current)")
        }
        return fingerprint.hex
    }

    /// What a story's page shows of it: its JSON, every reference its content makes with the
    /// target's identity and content, its breadcrumbs and its backlinks. (What it lists is the
    /// page's ``PageListing``: each page of a long listing hashes only its own share.)
    private func combine(_ story: Story, into fingerprint: inout Fingerprint) {
        fingerprint.combine(story.digest)
        for edge in graph.references(from: story.uuid) {
            fingerprint.combine(edge.fieldPath)
            fingerprint.combine(edge.kind.rawValue)
            fingerprint.combine(edge.reference.description)
            fingerprint.combine(edge.anchor ?? "-")
            fingerprint.combine(edge.cachedURL ?? "-")
            if edge.target == nil, let other = elsewhere(edge.reference) {
                // A link to another language's page shows that story's name and URL.
                fingerprint.combine("\(other.uuid) \(other.name) \(other.fullSlug) \(other.digest)")
            } else {
                combineIdentity(of: edge.target, content: true, into: &fingerprint)
            }
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
    }

    /// The identity of the story with UUID `uuid`, and with `content` its digest; `-` for a
    /// story the graph does not have.
    private func combineIdentity(of uuid: String?, content: Bool, into fingerprint: inout Fingerprint) {
        Self.combine(uuid.flatMap { identities[$0] }, content: content, into: &fingerprint)
    }

    private static func combine(_ story: Identity?, content: Bool, into fingerprint: inout Fingerprint) {
        guard let story else { return fingerprint.combine("-") }
        fingerprint.combine(story.identity)
        if content { fingerprint.combine(story.shown) }
    }
}
