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
    /// Hash values, not hex: every page combines several, and numbers are copied without the
    /// reference counting of strings that all rendering threads share.
    private struct Identity: Sendable {
        var identity: UInt64
        var shown: UInt64
    }

    private let graph: LinkGraph
    private let plan: PagePlan
    /// The story another language has for a reference this graph does not know (links across
    /// languages, see ``LanguageVersions``).
    private let elsewhere: @Sendable (StoryReference) -> Story?
    private let base: String
    /// Every story of the graph's, in ``LinkGraph/stories`` order, hashed once rather than for
    /// every page that shows it.
    private let hashed: HashedStories
    /// The root story's, first in every story page's breadcrumbs.
    private let root: Identity?
    /// The rest of the breadcrumbs of the stories of each folder (`blog/2024/`): the identities
    /// of its start page and those of the folders above it, hashed once for all its stories.
    private let folderCrumbs: [Substring: UInt64]
    /// The positions of the stories whose content every page's fingerprint reads (the global
    /// story's, the collections'); empty unless reads are noted.
    private let readByEveryPage: Set<Int>
    /// Whether it notes whose content each fingerprint reads (see ``fingerprintsAndReaders(of:listings:jobs:)``).
    let notesReads: Bool

    /// Prepares the fingerprints of `graph`'s pages, hashing its stories on at most `jobs` threads.
    /// With `notingReads`, it also notes whose content each story's shown content reads, so
    /// that ``fingerprintsAndReaders(of:listings:jobs:)`` can tell which pages read which.
    init(
        graph: LinkGraph, plan: PagePlan, key: String, jobs: Int, notingReads: Bool = false,
        elsewhere: @escaping @Sendable (StoryReference) -> Story? = { _ in nil }
    ) {
        self.graph = graph
        self.plan = plan
        self.elsewhere = elsewhere
        notesReads = notingReads
        let stories = graph.stories
        let names = ParallelWork.map(count: stories.count, jobs: jobs) { index in
            let story = stories[index].story
            var identity = Fingerprint()
            identity.combine(story.uuid)
            identity.combine(story.name)
            identity.combine(story.slug)
            identity.combine(story.fullSlug)
            identity.combine(plan.location(of: story)?.url ?? "-")
            return (identity: identity.value, digest: story.digest, folder: Self.folder(of: story.fullSlug))
        }
        let shown = ParallelWork.map(count: stories.count, jobs: jobs) { index in
            // A story reached twice under one UUID is known by the first, as the graph's lookups are.
            let position = graph.position(of: stories[index].story) ?? index
            var shown = Fingerprint()
            var reads = ContentReads(noting: notingReads)
            shown.combine(names[position].digest)
            reads.note(position)
            for edge in graph.referencePositions(from: position) {
                let target = graph.targetPosition(ofEdge: edge)
                Self.combine(target.map { names[$0].identity }, into: &shown)
                guard graph.kind(ofEdge: edge) == .relation, !graph.isUnresolvedEdge(at: edge) else { continue }
                shown.combine(target.map { names[$0].digest } ?? "-")
                reads.note(target)
                for inner in target.map({ graph.referencePositions(from: $0) }) ?? [] {
                    Self.combine(graph.targetPosition(ofEdge: inner).map { names[$0].identity }, into: &shown)
                }
            }
            return (identity: Identity(identity: names[position].identity, shown: shown.value), reads: reads.positions)
        }
        let hashed = HashedStories(identities: shown.map(\.identity), shownReads: shown.map(\.reads))
        let identities = hashed.identities
        self.hashed = hashed
        root = graph.story(for: .slug(graph.rootSlug)).flatMap { graph.position(of: $0) }.map { identities[$0] }
        folderCrumbs = Self.folderCrumbs(of: names.lazy.map(\.folder), graph: graph, identities: identities)
        var base = Fingerprint()
        var baseReads = ContentReads(noting: notingReads)
        base.combine(key)
        let global = plan.globalStory.flatMap { graph.position(of: $0) }
        if let global {
            base.combine(value: identities[global].shown)
        } else {
            base.combine(plan.globalStory?.digest ?? "-")
        }
        baseReads.note(shown: global.map { hashed.shownReads[$0] })
        for collection in plan.collections {
            base.combine(collection.name)
            for story in collection.stories { hashed.combineShown(graph.position(of: story), into: &base, reads: &baseReads) }
        }
        self.base = base.hex
        readByEveryPage = Set(baseReads.positions.map(Int.init))
    }

    /// The value of ``folderCrumbs`` for `folders` (``folder(of:)`` of each story's `full_slug`,
    /// found on the threads that read the stories). A folder like the one before it is not looked
    /// up: stories come in crawl order, a folder's together, and hashing each story's folder cost
    /// a build of 100,000 stories 30 ms on one thread.
    private static func folderCrumbs(of folders: some Sequence<Substring>, graph: LinkGraph, identities: [Identity]) -> [Substring: UInt64] {
        var crumbs: [Substring: UInt64] = [:]
        var last: Substring?
        for folder in folders where folder != last {
            last = folder
            // A folder is a slice of a `full_slug` below it, whose crumbs are the folder's.
            if crumbs[folder] == nil { crumbs[folder] = self.crumbs(above: folder.base, graph: graph, identities: identities) }
        }
        return crumbs
    }

    /// The identities of the start pages of the folders above `fullSlug`, outermost first, hashed.
    private static func crumbs(above fullSlug: String, graph: LinkGraph, identities: [Identity]) -> UInt64 {
        var fingerprint = Fingerprint()
        forEachFolder(above: fullSlug) { folder in
            combine(graph.story(for: .slug(folder)).flatMap { graph.position(of: $0) }.map { identities[$0].identity }, into: &fingerprint)
        }
        return fingerprint.value
    }

    /// What `fullSlug`'s breadcrumbs depend on: all of it up to its last segment, `blog/2024/`
    /// for `blog/2024/post` (and for `blog/2024/post/`); empty for a story at the top.
    /// Looked for among its UTF-8 bytes: walking characters back from the end cost a one-story
    /// rebuild of 10,000 pages 1.5 ms.
    private static func folder(of fullSlug: String) -> Substring {
        let bytes = fullSlug.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: "/") { end = bytes.index(before: end) }
        guard let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return fullSlug[...slash]
    }

    /// The fingerprints of `pages`, each with what it lists, in order, computed on at most
    /// `jobs` threads.
    func fingerprints(of pages: [PlannedPage], listings: [PageListing], jobs: Int) -> [String] {
        ParallelWork.map(count: pages.count, jobs: jobs) { fingerprint(of: pages[$0], listing: listings[$0]) }
    }

    /// The fingerprint of `page`, which lists `listing` (see ``fingerprints(of:listings:jobs:)``).
    func fingerprint(of page: PlannedPage, listing: PageListing) -> String {
        var reads = ContentReads(noting: false)
        return fingerprint(of: page, listing: listing, reads: &reads)
    }

    /// The fingerprints of `pages` as ``fingerprints(of:listings:jobs:)`` gives them, and which
    /// pages they show the content of which stories in: made with `notingReads`, this tells a
    /// rebuild that changed only some stories' content which pages to render again.
    func fingerprintsAndReaders(of pages: [PlannedPage], listings: [PageListing], jobs: Int) -> ([String], ContentReaders) {
        let found = ParallelWork.map(count: pages.count, jobs: jobs) { index in
            var reads = ContentReads(noting: notesReads)
            let fingerprint = fingerprint(of: pages[index], listing: listings[index], reads: &reads)
            return (fingerprint, reads.positions)
        }
        return (found.map(\.0), ContentReaders(pages: found.map(\.1), readByEveryPage: readByEveryPage))
    }

    /// The fingerprint of `page`, which lists `listing`: for a story's page (or a further page
    /// of its listing) everything its story shows; for a tag page its tag; for the page of
    /// every tag, every tag. Then what it lists, with each listed story's content. Notes in
    /// `reads` the stories whose content it read.
    private func fingerprint(of page: PlannedPage, listing: PageListing, reads: inout ContentReads) -> String {
        var fingerprint = Fingerprint()
        fingerprint.combine(base)
        fingerprint.combine(page.location.url)
        switch page.kind {
        case .story(let story), .listingPage(let story, _):
            combine(story, into: &fingerprint, reads: &reads)
        case .tag(let slug, _):
            fingerprint.combine(plan.tags?.tag(slug: slug)?.name ?? "-")
        case .tagIndex:
            for tag in plan.tags?.tags ?? [] {
                fingerprint.combine(tag.name)
                fingerprint.combine(String(tag.stories.count))
            }
        }
        for story in listing.children ?? [] {
            hashed.combineShown(graph.position(of: story), into: &fingerprint, reads: &reads)
        }
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
    private func combine(_ story: Story, into fingerprint: inout Fingerprint, reads: inout ContentReads) {
        fingerprint.combine(story.digest)
        let position = graph.position(of: story)
        reads.note(position)
        if let position {
            for index in graph.referencePositions(from: position) {
                graph.combineWritten(ofEdge: index, into: &fingerprint)
                if graph.isUnresolvedEdge(at: index), let other = elsewhere(graph.edges[index].reference) {
                    // A link to another language's page shows that story's name and URL.
                    fingerprint.combine("\(other.uuid) \(other.name) \(other.fullSlug) \(other.digest)")
                } else {
                    hashed.combineShown(graph.targetPosition(ofEdge: index), into: &fingerprint, reads: &reads)
                }
            }
        }
        Self.combine(root, content: false, into: &fingerprint)
        fingerprint.combine(
            value: folderCrumbs[Self.folder(of: story.fullSlug)] ?? Self.crumbs(above: story.fullSlug, graph: graph, identities: hashed.identities))
        if let position {
            for source in graph.backlinkPositions(to: position) { Self.combine(hashed.identities[source], content: false, into: &fingerprint) }
        }
    }

    /// Calls `visit` with the slug of each folder above `fullSlug`, outermost first, as its
    /// breadcrumbs name them: `blog/` and `blog/2024/` for `blog/2024/post`.
    private static func forEachFolder(above fullSlug: String, _ visit: (String) -> Void) {
        let segments = fullSlug.split(separator: "/")
        guard segments.count > 1 else { return }
        var folder = ""
        for segment in segments.dropLast() {
            folder += segment
            folder += "/"
            visit(folder)
        }
    }

    /// The graph's stories hashed: each one's ``Identity``, and the positions of the stories whose
    /// digests its ``Identity/shown`` holds (empty unless reads are noted).
    private struct HashedStories: Sendable {
        let identities: [Identity]
        let shownReads: [[Int32]]

        /// The identity of the story at `position` with its content as shown, noting in `reads`
        /// whose content that is; `-` for a story the graph does not have.
        func combineShown(_ position: Int?, into fingerprint: inout Fingerprint, reads: inout ContentReads) {
            BuildPageFingerprints.combine(position.map { identities[$0] }, content: true, into: &fingerprint)
            reads.note(shown: position.map { shownReads[$0] })
        }
    }

    /// `story`'s identity, and with `content` its content as shown; `-` for no story.
    private static func combine(_ story: Identity?, content: Bool, into fingerprint: inout Fingerprint) {
        guard let story else { return fingerprint.combine("-") }
        fingerprint.combine(value: story.identity)
        if content { fingerprint.combine(value: story.shown) }
    }

    /// An identity's value; `-` for a story the graph does not have.
    private static func combine(_ identity: UInt64?, into fingerprint: inout Fingerprint) {
        guard let identity else { return fingerprint.combine("-") }
        fingerprint.combine(value: identity)
    }
}
