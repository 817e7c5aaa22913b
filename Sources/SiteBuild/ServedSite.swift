import Foundation
import Mustache
import SiteOutput
import StoryCrawl
import StoryModel
import StoryRender
import StorySource

/// What `serve` keeps of its last good build of a content folder (whose collections, if any,
/// select by heads alone), so that a save that edited only stories' content renders only the
/// pages that show it (``rebuild(changing:output:references:parsedFiles:siteModels:timings:)``),
/// instead of going over every page as a build does.
///
/// Such a save moves no edge and no page: each language's graph and plan are the last build's
/// with the new versions in place, and the pages whose fingerprints read the changed stories'
/// content (``ContentReaders``) are the only ones that can differ. The rest is as the last
/// build left it, so the result is what a build would write.
public struct ServedSite: Sendable {
    /// One language's share of the site: the only one, for a site without languages.
    struct Edition: Sendable {
        var graph: LinkGraph
        var plan: PagePlan
        let readers: ContentReaders
    }

    /// One language's new versions of the saved stories.
    private struct Change {
        /// Their positions in the language's graph (of those it reached).
        var positions: [Int]
        /// The versions the language's plan held, and the new ones.
        var versions: StoryVersions
    }

    /// What the build reported; a rebuild here that would report anything else gives way to a
    /// build.
    public let diagnostics: [Diagnostic]
    /// The settings the site was built with.
    let settings: SiteSettings
    let templates: TemplateLibrary
    let folder: LocalFolderSource
    /// Each language's graph, plan and readers, default first.
    private(set) var editions: [Edition]
    /// The pages that translate each other; content edits change none of their names or URLs.
    let translations: PageTranslations
    /// The UUIDs of the stories pages show from another language, linking to a story their
    /// own language has no version of (see ``LanguageVersions``): their fingerprints read
    /// those stories' digests without noting them, so a save of one builds.
    let shownAcrossLanguages: Set<String>
    /// Each language's stories by translation group, which content edits do not change.
    let groups: LanguageVersions.Groups
    /// Each page's record of its last render, by ``PlannedPage/key``: the hash of its file, its
    /// warnings and missing components. (Its fingerprint is the last build's, and is not used.)
    private(set) var pages: [String: BuildCache.Page]
    /// The content hash of each feed file, by path.
    private(set) var feeds: [String: String]
    /// How many files the site has.
    let fileCount: Int

    /// The site as `output` generated it, every page rendered or kept, from `plans` (one per
    /// language of `output.graphs`) with `templates` and `settings`; nil when it had errors,
    /// or is not one this can rebuild: the generation noted no content readers (see
    /// ``SiteGenerator/notesContentReads``), or its stories are not from a content folder.
    init?(_ output: SiteGenerator.Output, plans: [PagePlan], templates: TemplateLibrary, settings: SiteSettings) {
        guard let folder = output.folder, let translations = output.model?.translations, !output.hasErrors,
              !plans.isEmpty, output.contentReaders.count == plans.count, output.graphs.count == plans.count
        else { return nil }
        self.settings = settings
        diagnostics = output.diagnostics
        self.templates = templates
        self.folder = folder
        editions = zip(output.graphs, zip(plans, output.contentReaders)).map { Edition(graph: $0.graph, plan: $1.0, readers: $1.1) }
        self.translations = translations
        groups = LanguageVersions.Groups(output.graphs.map(\.graph))
        shownAcrossLanguages = Self.storiesShownAcrossLanguages(in: editions, groups: groups)
        pages = output.pages
        let feedPaths = Set(plans.flatMap(\.feeds).map { SafePath.normalized($0.feedURL) })
        feeds = Dictionary(output.files.filter { feedPaths.contains($0.path) }.map { ($0.path, $0.hash) }, uniquingKeysWith: { first, _ in first })
        fileCount = output.files.count + output.kept.count
    }

    /// How many pages the site has, in every language.
    public var pageCount: Int { editions.reduce(0) { $0 + $1.plan.pages.count } }

    /// Brings the site up to date with the saves of the story files at `paths` (absolute, in
    /// the content folder): renders again the pages that show their stories, in every
    /// language, writes those that changed into `output`, and says what it wrote. Nil when the
    /// save did more than edit content (a new or removed file, a changed head or reference, a
    /// story another language's pages show, a page that now warns otherwise or fails) or a
    /// file read changed meanwhile: then the site must be built, and this value, partly
    /// brought up to date, is to be dropped. In place, so hold it once: a copy held elsewhere
    /// makes the update copy the plans. `references` hold those of the crawl; `parsedFiles`
    /// are the content files as the builds loaded them. `siteModels` gets the new model;
    /// `timings`, how long each phase took.
    public mutating func rebuild(
        changing paths: [String], output: URL, references: ReferenceCache, parsedFiles: ParsedFileCache?,
        siteModels: SiteModelStore?, timings: PhaseTimings = PhaseTimings()
    ) -> SiteWriter.Summary? {
        guard let saved = timings.measure("read", { stories(in: paths) }),
              shownAcrossLanguages.isDisjoint(with: saved.map(\.uuid)),
              let changes = timings.measure("graph update", { updateGraphs(with: saved, references: references) }),
              timings.measure("plan update", { updatePlans(with: changes) })
        else { return nil }
        var shown: [[Int]] = []
        for (edition, change) in zip(editions, changes) {
            guard let indices = edition.readers.pages(showingContentOf: change.positions, storyCount: edition.graph.stories.count) else { return nil }
            shown.append(indices)
        }
        let renderers = makeRenderers()
        guard let files = timings.measure("render", { render(shown, renderers: renderers, changes: changes) }),
              // A page that showed a story whose file changed after the load would mix versions.
              parsedFiles?.filesChangedSinceLoad.isEmpty ?? true,
              timings.measure("write", { write(files, into: output) })
        else { return nil }
        siteModels?.store(SiteModel(
            editions: zip(editions, renderers).map { SiteModel.Edition(plan: $0.plan, graph: $0.graph, renderer: $1) },
            translations: translations, strict: settings.strict, templates: settings.templates))
        return SiteWriter.Summary(written: files.count, unchanged: fileCount - files.count, removed: 0)
    }

    /// Puts each language's version of the `saved` stories (see ``SiteLanguage/version(of:)``)
    /// in place in its graph, and says what changed in each; nil when a graph cannot take them
    /// (see ``StoryCrawl/LinkGraph/updated(changing:references:baseURL:)``).
    private mutating func updateGraphs(with saved: [Story], references: ReferenceCache) -> [Change]? {
        var changes: [Change] = []
        for index in editions.indices {
            let earlier = editions[index].graph
            let language = editions[index].plan.language
            let changed = language.map { saved.compactMap($0.version(of:)) } ?? saved
            guard let updated = earlier.updated(changing: changed, references: references, baseURL: settings.baseURL) else { return nil }
            let versions = StoryVersions(changed.compactMap { story in
                guard let previous = earlier.story(uuid: story.uuid), let current = updated.story(uuid: story.uuid) else { return nil }
                return (previous, current)
            })
            changes.append(Change(positions: changed.compactMap { updated.position(of: $0) }, versions: versions))
            editions[index].graph = updated
        }
        return changes
    }

    /// Puts the new versions in place in each language's plan; false when one cannot take
    /// them (see ``PagePlan/update(with:)``).
    private mutating func updatePlans(with changes: [Change]) -> Bool {
        for index in editions.indices {
            guard editions[index].plan.update(with: changes[index].versions) else { return false }
        }
        return true
    }

    /// Each language's renderer, its links across languages as a build makes them.
    private func makeRenderers() -> [PageRenderer] {
        guard editions.count > 1 else {
            return [SiteGenerator.renderer(of: editions[0].plan, graph: editions[0].graph, templates: templates, settings: settings)]
        }
        let languages = Self.languageVersions(of: editions, groups: groups)
        return editions.indices.map { index in
            SiteGenerator.renderer(
                of: editions[index].plan, graph: editions[index].graph, templates: templates, settings: settings, language: index, of: languages)
        }
    }

    private static func languageVersions(of editions: [Edition], groups: LanguageVersions.Groups) -> LanguageVersions {
        LanguageVersions(
            plans: editions.map(\.plan), graphs: editions.map { LanguageGraph(language: $0.plan.language, graph: $0.graph) }, groups: groups)
    }

    /// The UUIDs of the stories that the links of a language's pages lead to in another
    /// language (see ``shownAcrossLanguages``).
    private static func storiesShownAcrossLanguages(in editions: [Edition], groups: LanguageVersions.Groups) -> Set<String> {
        guard editions.count > 1 else { return [] }
        let languages = languageVersions(of: editions, groups: groups)
        var shown = Set<String>()
        for (index, edition) in editions.enumerated() {
            let edges = edition.graph.edges
            for edge in edges.indices where edition.graph.isUnresolvedEdge(at: edge) {
                if let story = languages.story(for: edges[edge].reference, outside: index) { shown.insert(story.uuid) }
            }
        }
        return shown
    }

    /// The stories of the files at `paths`, read again; nil when one is not a file that held one
    /// story and still does.
    private func stories(in paths: [String]) -> [Story]? {
        var stories: [Story] = []
        for path in paths {
            guard let story = folder.rereadStory(atPath: path) else { return nil }
            stories.append(story)
        }
        return stories
    }

    /// Renders the pages at `shown` (for each language, indices of its plan) and the feeds that
    /// list a new version of `changes`, noting what each page gave; returns the files whose
    /// bytes differ from what is written. Nil when a page fails, or warns otherwise than before.
    private mutating func render(_ shown: [[Int]], renderers: [PageRenderer], changes: [Change]) -> [OutputFile]? {
        var files: [OutputFile] = []
        for (index, edition) in editions.enumerated() {
            let (plan, graph, renderer) = (edition.plan, edition.graph, renderers[index])
            for page in shown[index].map({ plan.pages[$0] }) {
                var listing = plan.listing(of: page)
                listing.translations = translations.of(page, in: plan.language)
                guard let record = pages[page.key],
                      let rendered = try? SiteGenerator.render(page, listing: listing, graph: graph, plan: plan, renderer: renderer)
                else { return nil }
                let file = OutputFile(path: page.location.filePath, text: rendered.html)
                let renewed = BuildCache.Page(fingerprint: record.fingerprint, path: record.path, rendered: rendered, hash: file.hash)
                guard renewed.warnings == record.warnings, renewed.missingComponents == record.missingComponents else { return nil }
                if renewed.hash != record.hash { files.append(file) }
                pages[page.key] = renewed
            }
            guard let baseURL = settings.baseURL else { continue }
            for listing in plan.feeds where listing.pages.items.contains(where: changes[index].versions.isNew) {
                let feed = FeedFile.make(for: listing, renderer: renderer, baseURL: baseURL, site: settings.site)
                if feeds[feed.path] != feed.hash { files.append(feed) }
                feeds[feed.path] = feed.hash
            }
        }
        return files
    }

    /// Puts `files` in place in `output`, under its lock; false when that fails.
    private func write(_ files: [OutputFile], into output: URL) -> Bool {
        do throws(OutputError) {
            let lock = try OutputLock.acquire(for: output, displayPath: settings.output)
            defer { withExtendedLifetime(lock) {} }
            try SiteWriter(output: output, displayPath: settings.output, jobs: settings.jobs).replace(files)
            return true
        } catch {
            return false
        }
    }
}
