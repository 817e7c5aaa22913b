import Foundation
import Mustache
import SiteOutput
import StoryCrawl
import StoryModel
import StoryRender
import StorySource

/// What `serve` keeps of its last good build of a content folder without languages (whose
/// collections, if any, select by heads alone), so that a save that edited only stories'
/// content renders only the pages that show it
/// (``rebuild(changing:output:references:parsedFiles:siteModels:timings:)``), instead of going
/// over every page as a build does.
///
/// Such a save moves no edge and no page: the graph and the plan are the last build's with the
/// new versions in place, and the pages whose fingerprints read the changed stories'
/// content (``ContentReaders``) are the only ones that can differ. The rest is as the last
/// build left it, so the result is what a build would write.
public struct ServedSite: Sendable {
    /// What the build reported; a rebuild here that would report anything else gives way to a
    /// build.
    public let diagnostics: [Diagnostic]
    /// The settings the site was built with.
    let settings: SiteSettings
    let templates: TemplateLibrary
    let folder: LocalFolderSource
    private(set) var graph: LinkGraph
    private(set) var plan: PagePlan
    let readers: ContentReaders
    /// Each page's record of its last render, by ``PlannedPage/key``: the hash of its file, its
    /// warnings and missing components. (Its fingerprint is the last build's, and is not used.)
    private(set) var pages: [String: BuildCache.Page]
    /// The content hash of each feed file, by path.
    private(set) var feeds: [String: String]
    /// How many files the site has.
    let fileCount: Int

    /// The site as `output` generated it, every page rendered or kept, from `plan` with
    /// `templates` and `settings`; nil when it had errors, or is not one this can rebuild: the
    /// generation noted no content readers (see ``SiteGenerator/notesContentReads``), or its
    /// stories are not from a content folder.
    init?(_ output: SiteGenerator.Output, plan: PagePlan, templates: TemplateLibrary, settings: SiteSettings) {
        guard let readers = output.contentReaders, let folder = output.folder, let graph = output.graph, !output.hasErrors else { return nil }
        self.settings = settings
        diagnostics = output.diagnostics
        self.templates = templates
        self.folder = folder
        self.graph = graph
        self.plan = plan
        self.readers = readers
        pages = output.pages
        let feedPaths = Set(plan.feeds.map { SafePath.normalized($0.feedURL) })
        feeds = Dictionary(output.files.filter { feedPaths.contains($0.path) }.map { ($0.path, $0.hash) }, uniquingKeysWith: { first, _ in first })
        fileCount = output.files.count + output.kept.count
    }

    /// How many pages the site has.
    public var pageCount: Int { plan.pages.count }

    /// Brings the site up to date with the saves of the story files at `paths` (absolute, in
    /// the content folder): renders again the pages that show their stories, writes those that
    /// changed into `output`, and says what it wrote. Nil when the save did more than edit
    /// content (a new or removed file, a changed head or reference, a page that now warns
    /// otherwise or fails) or a file read changed meanwhile: then the site must be built, and
    /// this value, partly brought up to date, is to be dropped. In place, so hold it once: a copy
    /// held elsewhere makes the update copy the plan. `references` hold those of the crawl;
    /// `parsedFiles` are the content files as the builds loaded them. `siteModels` gets the new
    /// model; `timings`, how long each phase took.
    public mutating func rebuild(
        changing paths: [String], output: URL, references: ReferenceCache, parsedFiles: ParsedFileCache?,
        siteModels: SiteModelStore?, timings: PhaseTimings = PhaseTimings()
    ) -> SiteWriter.Summary? {
        guard let changed = timings.measure("read", { stories(in: paths) }),
              let updated = timings.measure("graph update", { graph.updated(changing: changed, references: references, baseURL: settings.baseURL) })
        else { return nil }
        // The plan holds the versions the graph had: each is replaced by the graph's new one.
        let versions = StoryVersions(changed.compactMap { story in
            guard let earlier = graph.story(uuid: story.uuid), let current = updated.story(uuid: story.uuid) else { return nil }
            return (earlier, current)
        })
        graph = updated
        guard timings.measure("plan update", { plan.update(with: versions) }),
              let shown = readers.pages(showingContentOf: changed.compactMap { graph.position(of: $0.uuid) })
        else { return nil }
        let renderer = SiteGenerator.renderer(of: plan, graph: graph, templates: templates, settings: settings)
        guard let files = timings.measure("render", { render(shown, renderer: renderer, changed: versions) }),
              // A page that showed a story whose file changed after the load would mix versions.
              parsedFiles?.filesChangedSinceLoad.isEmpty ?? true,
              timings.measure("write", { write(files, into: output) })
        else { return nil }
        siteModels?.store(SiteModel(
            editions: [SiteModel.Edition(plan: plan, graph: graph, renderer: renderer)], translations: PageTranslations(plans: [plan]),
            strict: settings.strict, templates: settings.templates))
        return SiteWriter.Summary(written: files.count, unchanged: fileCount - files.count, removed: 0)
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

    /// Renders the pages at `indices` of the plan and the feeds that list a new version `changed`
    /// has, noting what each page gave; returns the files whose bytes differ from what is
    /// written. Nil when a page fails, or warns otherwise than before.
    private mutating func render(_ indices: [Int], renderer: PageRenderer, changed: StoryVersions) -> [OutputFile]? {
        var files: [OutputFile] = []
        for index in indices {
            let page = plan.pages[index]
            guard let record = pages[page.key],
                  let rendered = try? SiteGenerator.render(page, listing: plan.listing(of: page), graph: graph, plan: plan, renderer: renderer)
            else { return nil }
            let file = OutputFile(path: page.location.filePath, text: rendered.html)
            let renewed = BuildCache.Page(fingerprint: record.fingerprint, path: record.path, rendered: rendered, hash: file.hash)
            guard renewed.warnings == record.warnings, renewed.missingComponents == record.missingComponents else { return nil }
            if renewed.hash != record.hash { files.append(file) }
            pages[page.key] = renewed
        }
        guard let baseURL = settings.baseURL else { return files }
        for listing in plan.feeds where listing.pages.items.contains(where: changed.isNew) {
            let feed = FeedFile.make(for: listing, renderer: renderer, baseURL: baseURL, site: settings.site)
            if feeds[feed.path] != feed.hash { files.append(feed) }
            feeds[feed.path] = feed.hash
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
