import Foundation
import LinkCheck
import Mustache
import ParallelWork
import SiteOutput
import StoryCrawl
import StoryModel
import StoryRender
import StorySource

/// Runs the pipeline short of writing: load the templates and the source, crawl from the entries,
/// place each story's page, render every page, and add the 404 page, assets, sitemap and robots.
/// Every problem found is collected, so one run reports all of them.
public struct SiteGenerator {
    /// What a generation produced: the files to write (incomplete when there were errors) and
    /// the problems found.
    public struct Output {
        /// The pages, the 404 page, the assets, the sitemap and robots.txt, as they are to be written.
        public var files: [OutputFile] = []
        /// Pages of the previous build kept as they are: not rendered again, or rendered to the
        /// bytes their intact files hold; and the sitemap, when it would come out the same.
        var kept: Set<String> = []
        /// What the next build's cache records of each page, by story UUID.
        var pages: [String: BuildCache.Page] = [:]
        /// The pages of ``pages`` whose records are not those the last build's cache holds;
        /// empty for a build without one.
        var renewedPages: Set<String> = []
        /// What the next build's cache records of the sitemap (``SiteOutput/Sitemap/fingerprint(of:baseURL:)``);
        /// nil for a site without one.
        var sitemap: String?
        /// The plans, graphs and renderers the pages came from; nil when planning failed.
        var model: SiteModel?
        /// Every problem found, in the order found.
        public var diagnostics: [Diagnostic] = []
        /// How many stories the crawl reached.
        public var storyCount = 0
        /// How many pages the site has, rendered or kept.
        public var pageCount = 0
        /// The link graph of each language's crawl, default first (one, without a language, for
        /// a site without languages); empty when the source could not be loaded or crawled.
        public var graphs: [LanguageGraph] = []
        /// The default language's link graph; nil when the source could not be loaded or crawled.
        public var graph: LinkGraph? { graphs.first?.graph }
        /// Which pages read which stories' content, per language as ``graphs``, when the
        /// generator was asked to note it.
        var contentReaders: [ContentReaders] = []
        /// The readers to keep for the next build, when it noted them for that
        /// (``SiteGenerator/keepsReaders``) rather than take a content edit's way.
        var keptReaders: KeptReaders?
        /// The state of the content the page records are of, and that of the readers they go
        /// with (``BuildCache/contentState``, ``BuildCache/readersState``); nil when not known.
        var contentState: String?
        var readersState: String?
        /// What `serve` keeps to rebuild only the pages a save changed, when the generator was
        /// asked for it and the site is one it can do that for (see ``ServedSite``).
        public var served: ServedSite?
        /// The content folder the stories were read from (the fallback folder, when the API
        /// could not be reached); nil for stories from the API. It tells where a story's field is.
        public var folder: LocalFolderSource?

        /// Whether a problem found is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    var settings: SiteSettings
    /// The folder the settings' paths are relative to.
    let workingDirectory: URL
    let progress: any BuildProgress
    /// Parsed content files kept between builds (`serve`, or on disk), so unchanged files are
    /// not read again.
    var parsedFiles: ParsedFileCache?
    /// References found by earlier crawls, so unchanged stories are not walked again.
    var referenceCache: ReferenceCache?
    /// The latest crawl of this process (`serve`) or of the last build, brought up to date
    /// instead of crawling again (see ``CrawlMemory``).
    var crawlMemory: CrawlMemory?
    /// Where the phases' durations are recorded.
    var timings: PhaseTimings
    /// The API's stories kept between builds (`serve`): when set, the API is read through it,
    /// so only what it lacks is fetched.
    public var space: SpaceSnapshot?
    /// Whether the output keeps what `serve` needs to render only the pages a save changed
    /// (``Output/served``), where the site is one that can be rebuilt so.
    var keepsServedSite = false
    /// The content folder (`settings.source`) as the build's inputs listed it, so that loading
    /// it needs no listing of its own; nil to list it when it is loaded.
    var listedContent: ListedFolder?
    /// Where the content folder's stories keep their content while the build runs, rather than
    /// in memory: a large folder's (see ``parksContent(of:above:)``); nil to keep it in memory.
    var contentStore: TapeStore?
    /// The output folder as the last build left it, being read: the pages whose files are
    /// intact there may be kept, and the others go where its staging says as they are rendered
    /// (into memory for the write, or into the staging folder of a write that replaces the
    /// whole output folder; see ``SiteOutput/PageStaging``). Without it, every page is rendered
    /// and its bytes are kept for the write.
    var previousOutput: BackgroundValue<PreviousOutputRead>?

    /// Whether the generation keeps, for the next build, which pages read which stories' content
    /// (``KeptReaders``), and renders only those pages when the last build's readers tell them
    /// (``contentEdit(of:graph:previous:)``); for a site without languages.
    var keepsContentReaders = false

    /// Whether the page fingerprints note which pages read which stories' content, for a
    /// ``ServedSite`` or the next build (``keepsReaders``): asked for, and a content folder's
    /// site whose collections select by heads alone.
    var notesContentReads: Bool {
        (keepsServedSite || keepsReaders) && settings.api == nil && !settings.collections.contains { $0.selection.readsContent }
    }

    /// Whether the readers noted are kept for the next build (see ``keepsContentReaders``).
    private var keepsReaders: Bool { keepsContentReaders && settings.languages.isEmpty }

    /// A generator of the site `settings` describe, their paths relative to `workingDirectory`.
    public init(
        settings: SiteSettings, workingDirectory: URL, progress: any BuildProgress = SilentProgress(),
        parsedFiles: ParsedFileCache? = nil, timings: PhaseTimings = PhaseTimings()
    ) {
        self.settings = settings
        self.workingDirectory = workingDirectory
        self.progress = progress
        self.parsedFiles = parsedFiles
        self.timings = timings
    }

    /// Loads the source and crawls it, each language from its own home: the first half of a
    /// build, and all of `pull`.
    public func crawlStories() async -> Output {
        var output = Output()
        guard let source = loadSource(into: &output) else { return output }
        output.folder = source as? LocalFolderSource
        for language in settings.siteLanguages {
            var scoped = self
            scoped.settings = settings.scoped(to: language)
            guard let graph = await scoped.crawl(source, in: language, into: &output) else { return output }
            output.graphs.append(LanguageGraph(language: language, graph: graph))
        }
        // Stories reached in any language count; those no language reaches are reported once.
        let unreached: Int
        if output.graphs.count == 1, let graph = output.graphs.first?.graph {
            // A graph holds each story once: nothing to match across languages.
            output.storyCount = graph.stories.count
            unreached = graph.orphans.count
        } else {
            let reached = Set(output.graphs.flatMap { $0.graph.stories.map(\.story.key) })
            output.storyCount = reached.count
            unreached = Set(output.graphs.flatMap { $0.graph.orphans.map(\.key) }).subtracting(reached).count
        }
        if unreached > 0 {
            output.diagnostics.append(.warning(
                source.description,
                "\(counted(unreached, "story is", "stories are")) reached by no link; storysite check --orphans lists them"))
        }
        return output
    }

    /// The whole site, short of writing it, every page rendered. Broken story links are reported
    /// as warnings (errors under `--strict`), unless the caller reports them itself (`check`).
    public func generate(reportsBrokenStoryLinks: Bool = true) async -> Output {
        await generate(previous: nil, key: "", reportsBrokenStoryLinks: reportsBrokenStoryLinks)
    }

    /// The whole site, short of writing it. Pages whose fingerprint matches `previous` and
    /// whose file is intact in ``previousOutput`` are kept instead of rendered.
    /// Broken story links are reported as warnings (errors under `--strict`), unless the caller
    /// reports them itself (`check`).
    func generate(
        previous: BuildCache?, key: String, reportsBrokenStoryLinks: Bool = true
    ) async -> Output {
        var templateProblems = Output()
        let templates = timings.measure("templates") { loadTemplates(into: &templateProblems) }
        var output = await crawlStories()
        output.diagnostics = templateProblems.diagnostics + output.diagnostics
        guard let templates, !output.graphs.isEmpty, !output.hasErrors else { return output }

        let (plans, collisions) = timings.measure("plan") {
            let plans = output.graphs.map { edition in
                PagePlan(
                    graph: edition.graph, settings: settings.scoped(to: edition.language), language: edition.language,
                    tagPages: templates.contains("pages/tag"), tagIndex: templates.contains("pages/tags"))
            }
            return (plans, PagePlan.collisions(among: plans))
        }
        // A problem of the content shows in every language alike: reported once.
        var reported = Set<Diagnostic>()
        output.diagnostics += (plans.flatMap(\.problems) + collisions).filter { reported.insert($0).inserted }
        if !output.hasErrors {
            await assemble(plans, graphs: output.graphs, templates: templates, previous: previous, key: key, into: &output)
        }
        // A content file read again for a page found changed since the load: the pages would mix versions.
        output.diagnostics += (parsedFiles?.filesChangedSinceLoad ?? []).map { .error($0, "changed during the build; build again") }
        if reportsBrokenStoryLinks {
            let graphs = output.graphs
            output.diagnostics += timings.measure("link check") {
                graphs.indices.flatMap { index in
                    brokenStoryLinks(in: graphs[index], otherLanguages: graphs.indices.filter { $0 != index }.map { graphs[$0].graph })
                }
            }
        }
        if notesContentReads {
            output.served = ServedSite(output, plans: plans, templates: templates, settings: settings)
        }
        return output
    }

    /// Every language's pages, then the 404 page, the assets, the feeds, the sitemap and robots.txt.
    private func assemble(
        _ plans: [PagePlan], graphs: [LanguageGraph], templates: TemplateLibrary,
        previous: BuildCache?, key: String, into output: inout Output
    ) async {
        let (translations, languages) = timings.measure("page translations") {
            (PageTranslations(plans: plans), LanguageVersions(plans: plans, graphs: graphs))
        }
        var renderers: [PageRenderer] = []
        // Whether every language took a content edit's way: then every page kept its URL, date and translations.
        var editedContentAlone = true
        for (index, (plan, edition)) in zip(plans, graphs).enumerated() {
            let graph = edition.graph
            let renderer = Self.renderer(of: plan, graph: graph, templates: templates, settings: settings, language: index, of: languages)
            renderers.append(renderer)
            let reuse: PageReuse
            if let previous, let edit = timings.measure("content edit", { contentEdit(of: plan, graph: graph, previous: previous) }) {
                reuse = .contentEdit(pages: edit.pages, cache: previous)
                output.contentState = edit.state
                output.readersState = previous.readersState
            } else {
                let fingerprints = timings.measure("story identities") {
                    BuildPageFingerprints(
                        graph: graph, plan: plan, key: key, jobs: settings.jobs, notingReads: notesContentReads,
                        elsewhere: { languages.story(for: $0, outside: index) })
                }
                reuse = .fingerprints(fingerprints, cache: previous)
                editedContentAlone = false
            }
            output.files += await render(plan, graph: graph, renderer: renderer, translations: translations, reusing: reuse, into: &output)
        }
        output.pageCount = output.files.count + output.kept.count
        output.model = SiteModel(
            editions: zip(plans, zip(graphs, renderers)).map { SiteModel.Edition(plan: $0, graph: $1.0.graph, renderer: $1.1) },
            translations: translations, strict: settings.strict, templates: settings.templates)
        timings.measure("404, assets, sitemap") {
            addSiteFiles(
                plans, renderers: renderers, translations: translations, previousSitemap: previous?.sitemap,
                keepsEntries: editedContentAlone, into: &output)
        }
        let intact = previousOutput?.value.intact ?? [:]
        output.diagnostics += timings.measure("path check") { folderConflicts(plans, in: output, intact: intact) }
    }

    /// The renderer of `plan`'s pages, the language at `index` of `languages`: its links across
    /// languages lead where `languages` says (see ``renderer(of:graph:templates:settings:otherPageURL:elsewhere:)``).
    static func renderer(
        of plan: PagePlan, graph: LinkGraph, templates: TemplateLibrary, settings: SiteSettings, language index: Int, of languages: LanguageVersions
    ) -> PageRenderer {
        renderer(
            of: plan, graph: graph, templates: templates, settings: settings,
            otherPageURL: { languages.pageURL(of: $0) }, elsewhere: { languages.story(for: $0, outside: index) })
    }

    /// The renderer of `plan`'s pages, whose links resolve in `graph`: to a page of the plan, or
    /// to one `otherPageURL` gives (another language's); `elsewhere` finds a story of another
    /// language for a reference the graph does not know (see ``LanguageVersions``).
    static func renderer(
        of plan: PagePlan, graph: LinkGraph, templates: TemplateLibrary, settings: SiteSettings,
        otherPageURL: @escaping @Sendable (Story) -> String? = { _ in nil },
        elsewhere: @escaping @Sendable (StoryReference) -> Story? = { _ in nil }
    ) -> PageRenderer {
        let resolver = GraphLinkResolver(
            graph: graph, pageURL: { plan.location(of: $0)?.url ?? otherPageURL($0) },
            pageURLAtPosition: { plan.url(ofStoryAt: $0) ?? otherPageURL(graph.stories[$0].story) },
            tagPageURL: { plan.tagPageURL(of: $0) }, elsewhere: elsewhere)
        return PageRenderer(
            library: templates,
            resolver: resolver,
            site: .object(settings.site),
            global: plan.globalStory,
            collections: plan.collections,
            language: plan.language?.code,
            baseURL: settings.baseURL,
            markdownUnsafe: settings.markdownUnsafe,
            dates: settings.dates,
            images: settings.images,
            richtext: settings.richtext,
            editable: settings.editable)
    }

    /// Errors for files that another file would need to be a folder (a story slugged
    /// `assets/style.css` beside that asset), each naming both: the write would fail on them.
    /// Files that are all `intact` ones of the last build have none: their manifest was checked
    /// for them when it was read, and checking again would cost per file. A page is kept only when
    /// its file is intact, so only the files made are looked up (looking up every kept page too
    /// took 0.2 s at 100,000 pages).
    private func folderConflicts(_ plans: [PagePlan], in output: Output, intact: [String: String]) -> [Diagnostic] {
        if output.files.allSatisfy({ intact[$0.path] != nil }) { return [] }
        let conflicts = SafePath.folderConflicts(among: output.files.map(\.path) + output.kept)
        guard !conflicts.isEmpty else { return [] }
        var pages: [String: PlannedPage] = [:]
        for plan in plans {
            for page in plan.pages { pages[page.location.filePath] = page }
        }
        func owner(_ path: String) -> String {
            if let page = pages[path] { return "the page of \(page.kind.description)" }
            if path.hasPrefix("assets/") { return "the asset '\(settings.templates)/\(path)'" }
            return "storysite's file '\(path)'"
        }
        return conflicts.map { conflict in
            let location = pages[conflict.below]?.name ?? conflict.below
            return .error(
                location,
                "\(owner(conflict.below)) would be at '\(conflict.below)', but '\(conflict.file)' is a file there: "
                    + "\(owner(conflict.file)); rename the story")
        }
    }

    private static let sitemapPath = "sitemap.xml"

    /// The 404 page (in the default language), the assets, with a base URL every language's
    /// feeds, the sitemap (with each page's translations) and robots.txt, and the static files.
    /// The sitemap the last build wrote, whose entries' fingerprint was `previousSitemap`, is
    /// kept when its entries are the same and its file is intact: making it again cost a
    /// one-story rebuild of 10,000 pages 4% of its time. With `keepsEntries` (a content edit,
    /// which changes no page's URL, date or translations) they are not made to be compared.
    private func addSiteFiles(
        _ plans: [PagePlan], renderers: [PageRenderer], translations: PageTranslations, previousSitemap: String?, keepsEntries: Bool,
        into output: inout Output
    ) {
        output.files.append(notFoundPage(renderers[0], into: &output))
        output.files += assets(into: &output)
        if let baseURL = settings.baseURL {
            for (plan, renderer) in zip(plans, renderers) {
                output.files += plan.feeds.map { FeedFile.make(for: $0, renderer: renderer, baseURL: baseURL, site: settings.site) }
            }
            let entries = {
                plans.flatMap { plan in
                    ParallelWork.map(count: plan.pages.count, jobs: settings.jobs) { index in
                        let page = plan.pages[index]
                        return Sitemap.Entry(
                            url: page.location.url, lastModified: StoryDate(page.kind.story?.string("published_at"))?.rfc3339,
                            alternates: translations.sitemapAlternates(of: page, in: plan.language))
                    }
                }
            }
            let made = keepsEntries && previousSitemap != nil ? nil : entries()
            let sitemap = made.map { Sitemap.fingerprint(of: $0, baseURL: baseURL) } ?? previousSitemap
            output.sitemap = sitemap
            if sitemap == previousSitemap, previousOutput?.value.intact[Self.sitemapPath] != nil {
                output.kept.insert(Self.sitemapPath)
            } else {
                output.files.append(OutputFile(path: Self.sitemapPath, text: Sitemap.xml(entries: made ?? entries(), baseURL: baseURL, jobs: settings.jobs)))
            }
            output.files.append(OutputFile(path: "robots.txt", text: Sitemap.robots(baseURL: baseURL)))
        }
        let (files, problems) = StaticFiles.merge(
            output.files, kept: output.kept, plans: plans, from: workingDirectory.resolving(settings.staticFolder),
            displayPath: settings.staticFolder, templates: settings.templates)
        output.files = files
        output.diagnostics += problems
    }

    /// The content-level check's broken story links of one language (named by its code, as in
    /// `de/about: body[0].link`): warnings, or errors under `--strict`.
    /// A link to another language's page (no version in this language) is a warning.
    private func brokenStoryLinks(in edition: LanguageGraph, otherLanguages: [LinkGraph]) -> [Diagnostic] {
        let prefix = edition.language.map { $0.strategy == .field ? $0.code + "/" : "" } ?? ""
        let findings = ContentLinkCheck.findings(in: edition.graph, includeOrphans: false, otherLanguages: otherLanguages)
        let crossLanguage = findings.filter { $0.severity == .warning && $0.reason.hasPrefix("no version in this language") }.map { finding in
            var field = ""
            if case .field(let path)? = finding.location { field = ": " + path }
            return Diagnostic.warning(prefix + finding.source + field, "link to '\(finding.target)': \(finding.reason)")
        }
        return crossLanguage + findings.filter { $0.severity == .broken }.map { finding in
            var field = ""
            if case .field(let path)? = finding.location { field = ": " + path }
            return Diagnostic(
                severity: settings.strict ? .error : .warning, location: prefix + finding.source + field,
                message: "broken story link to '\(finding.target)': \(finding.reason)")
        }
    }

    // MARK: Loading and crawling

    private func loadTemplates(into output: inout Output) -> TemplateLibrary? {
        guard folderExists(settings.templates) else {
            output.diagnostics.append(.error(settings.templates, "the templates folder does not exist; name it with --templates"))
            return nil
        }
        do {
            let library = try TemplateLibrary(folder: URL(fileURLWithPath: settings.templates, relativeTo: workingDirectory))
            output.diagnostics += library.missingPartialTags.map { tag in
                Diagnostic(severity: settings.strict ? .error : .warning, location: "\(tag.path):\(tag.line):\(tag.column)", message: tag.message)
            }
            return library
        } catch let errors as TemplateErrors {
            output.diagnostics += errors.errors.map { error in
                let location = error.line > 0 ? "\(error.path):\(error.line):\(error.column)" : error.path
                return .error(location, error.message)
            }
        } catch {
            output.diagnostics.append(.error(settings.templates, "\(error)"))
        }
        return nil
    }

    /// The API source when configured, else the content folder.
    private func loadSource(into output: inout Output) -> (any StorySource)? {
        if let space { return space.source(language: nil) }
        if let api = settings.api { return StoryblokSource(configuration: api) }
        return loadFolder(settings.source, listed: listedContent, store: contentStore, into: &output)
    }

    private func loadFolder(
        _ path: String, listed: ListedFolder? = nil, store: TapeStore? = nil, into output: inout Output
    ) -> (any StorySource)? {
        guard folderExists(path) else {
            output.diagnostics.append(.error(path, "the content folder does not exist; name it with --source"))
            return nil
        }
        do {
            let folder = try timings.measure("load") { () throws(SourceProblems) in
                try LocalFolderSource(
                    folder: workingDirectory.resolving(path), displayPath: path, jobs: settings.jobs, cache: parsedFiles,
                    listed: listed?.entries, store: store)
            }
            guard folder.storyCount > 0 else {
                output.diagnostics.append(.error(path, "no stories in \(folder); add story JSON files (each with uuid, full_slug and content) or name their folder with --source"))
                return nil
            }
            return folder
        } catch {
            output.diagnostics += error.problems.map { problem in
                let position = [problem.line, problem.column].compactMap { $0.map(String.init) }
                return .error(([problem.file] + position).joined(separator: ":"), problem.message)
            }
            return nil
        }
    }

    /// Crawls `source` as `language` reads it (see ``translated(_:to:)``); when the API cannot
    /// be reached and a fallback folder is set, crawls that folder instead, with a warning.
    private func crawl(_ base: any StorySource, in language: SiteLanguage?, into output: inout Output) async -> LinkGraph? {
        let source = timings.measure("translate") { translated(base, to: language) }
        progress.begin("Crawling" + (language.map { " (\($0.code))" } ?? ""))
        do {
            let entries = try await entries(in: source, language: language, into: &output)
            let memory = rememberedCrawl(for: source, language: language)
            var updated: LinkGraph?
            // Reading the kept crawl (the first time a build asks for it) is its own phase.
            if let (memory, folder, references) = memory,
               timings.measure("graph read", { memory.holdsCrawl(of: language?.code, entries: entries, baseURL: settings.baseURL) }) {
                updated = try await timings.measure("graph update") {
                    try await memory.updatedGraph(
                        of: language?.code, entries: entries, baseURL: settings.baseURL, source: folder, references: references, jobs: settings.jobs)
                }
            }
            let graph: LinkGraph
            if let updated {
                graph = updated
            } else {
                graph = try await timings.measure("crawl") {
                    try await Crawler(
                        source: source, entries: entries, collections: settings.collections.map(\.selection),
                        baseURL: settings.baseURL, jobs: settings.jobs, referenceCache: referenceCache
                    ).crawl()
                }
                memory?.memory.remember(graph, of: language?.code, entries: entries, baseURL: settings.baseURL)
            }
            progress.finish("Crawled \(counted(graph.stories.count, "story", "stories")) from \(source)")
            return graph
        } catch let error as StoryblokError where error.isUnreachable && settings.fallback != nil {
            let fallback = settings.fallback!
            progress.finish("Could not reach the API")
            output.diagnostics.append(.warning(
                source.description, "could not reach the API (\(error)); built from the pulled folder '\(fallback)' instead"))
            guard let folder = loadFolder(fallback, into: &output) else { return nil }
            output.folder = folder as? LocalFolderSource
            var withoutFallback = self
            withoutFallback.settings.fallback = nil
            return await withoutFallback.crawl(folder, in: language, into: &output)
        } catch let error as CrawlError {
            output.diagnostics += error.description.split(separator: "\n").map {
                .error(source.description, "\($0); name the entry story with --entry or \"entry\" in storysite.json")
            }
        } catch {
            output.diagnostics.append(.error(source.description, "\(error)"))
        }
        progress.finish("Crawl failed")
        return nil
    }

    /// The memory of the latest crawl, with the folder and references to bring its graph up to
    /// date with, when a crawl of `source` may be remembered and replaced by that: a folder
    /// without collections, its languages (if any) translated by field.
    private func rememberedCrawl(
        for source: any StorySource, language: SiteLanguage?
    ) -> (memory: CrawlMemory, folder: LocalFolderSource, references: ReferenceCache)? {
        guard settings.remembersCrawl(of: language), let crawlMemory, let referenceCache,
              let folder = source as? LocalFolderSource else { return nil }
        return (crawlMemory, folder, referenceCache)
    }

    /// `source` as `language` reads it: with field-level translation a folder's stories with
    /// their fields translated (``LocalFolderSource/translated(to:isDefault:jobs:)``) or the API
    /// asked for the language; with folder-level translation the language's folder
    /// (``FolderLanguageSource``); `source` itself without languages.
    private func translated(_ source: any StorySource, to language: SiteLanguage?) -> any StorySource {
        guard let language else { return source }
        if language.strategy == .folder { return FolderLanguageSource(base: source, language: language.code) }
        switch source {
        case let folder as LocalFolderSource:
            return folder.translated(to: language.code, isDefault: language.isDefault, jobs: settings.jobs)
        case is SnapshotSource where !language.isDefault:
            return space?.source(language: language.code) ?? source
        case is StoryblokSource where !language.isDefault:
            guard var api = settings.api else { return source }
            api.language = language.code
            return StoryblokSource(configuration: api)
        default:
            return source
        }
    }

    /// The entries to crawl from: the configured ones, plus the global story when the source has it.
    /// A global story named in `storysite.json` that `language`'s stories lack is an error (once,
    /// however many languages lack it): a typo would otherwise drop the navigation without a word.
    /// The default `global` may be missing.
    private func entries(in source: any StorySource, language: SiteLanguage?, into output: inout Output) async throws -> [String] {
        let global = SlugLookup.key(settings.global)
        guard !settings.entries.contains(where: { SlugLookup.key($0) == global }) else { return settings.entries }
        let found = try await source.stories(for: [StoryReference(parsing: settings.global)])
        if found.isEmpty && settings.globalIsExplicit {
            let problem = Diagnostic.error(SiteSettings.configurationFile, missingGlobal(in: language))
            if !output.diagnostics.contains(problem) { output.diagnostics.append(problem) }
        }
        return found.isEmpty ? settings.entries : settings.entries + [settings.global]
    }

    /// What to say when the `global` of `storysite.json` names no story; with folder-level
    /// translation, none in `language`'s folder.
    private func missingGlobal(in language: SiteLanguage?) -> String {
        guard let folder = language?.folder else {
            return "'global' names '\(settings.global)', which no story has; fix the slug or remove the setting"
        }
        let named = String(settings.global.dropFirst(folder.count))
        return "'global' names '\(named)', which no story has in \(folder) ('\(settings.global)'); "
            + "add the story, fix the slug or remove the setting"
    }

    // MARK: Rendering

    /// How a build tells which pages of the last build it may keep.
    private enum PageReuse {
        /// A page whose fingerprint is its record's in `cache`.
        case fingerprints(BuildPageFingerprints, cache: BuildCache?)
        /// A page not among `pages`, those that read the content a content edit changed (plan
        /// indices, in order), and that has a record in `cache` (see ``contentEdit(of:graph:previous:)``).
        case contentEdit(pages: [Int], cache: BuildCache)
    }

    /// Renders every page that cannot be reused from the previous build, at most `--jobs` at
    /// once; files, warnings and cache records come back in plan order whatever the concurrency,
    /// so output is deterministic and the same as a full build's.
    private func render(
        _ plan: PagePlan, graph: LinkGraph, renderer: PageRenderer, translations: PageTranslations, reusing reuse: PageReuse,
        into output: inout Output
    ) async -> [OutputFile] {
        let pages = plan.pages
        let jobs = settings.jobs
        let listing = { @Sendable (index: Int) in
            var listing = plan.listing(of: pages[index])
            listing.translations = translations.of(pages[index], in: plan.language)
            return listing
        }
        let previous: BuildCache?
        // The fingerprints of the pages, for their records; nil for a content edit's, which
        // fingerprints none (see BuildCache.Page.unknownFingerprint).
        let fingerprints: [String]?
        // Each page's listing, when every page's was made.
        let listings: [PageListing]?
        // Whether the page at an index may keep its record: its fingerprint is the record's, or
        // it does not read what a content edit changed.
        let mayKeep: @Sendable (Int, BuildCache.Page) -> Bool
        switch reuse {
        case .fingerprints(let pageFingerprints, let cache):
            let made = timings.measure("page listings") { ParallelWork.map(count: pages.count, jobs: jobs, listing) }
            let (found, readers) = timings.measure("page fingerprints") {
                guard pageFingerprints.notesReads else {
                    return (pageFingerprints.fingerprints(of: pages, listings: made, jobs: jobs), nil as ContentReaders?)
                }
                return pageFingerprints.fingerprintsAndReaders(of: pages, listings: made, jobs: jobs)
            }
            if let readers {
                output.contentReaders.append(readers)
                if keepsReaders {
                    let state = ContentEdit.state(of: graph, jobs: jobs)
                    output.keptReaders = KeptReaders(readers, of: graph, state: state)
                    output.contentState = state
                    output.readersState = state
                }
            }
            mayKeep = { index, record in record.fingerprint == found[index] }
            (previous, fingerprints, listings) = (cache, found, made)
        case .contentEdit(let shown, let cache):
            var isShown = [Bool](repeating: false, count: pages.count)
            for index in shown { isShown[index] = true }
            mayKeep = { [isShown] index, _ in !isShown[index] }
            (previous, fingerprints, listings) = (cache, nil, nil)
        }
        let lastOutput = timings.measure("previous output") { previousOutput?.value }
        let intact = lastOutput?.intact ?? [:]
        // A page is kept when it may keep its record, and its file is as written.
        let reused = timings.measure("page reuse") {
            ParallelWork.map(count: pages.count, jobs: jobs) { index -> BuildCache.Page? in
                guard let record = previous?.pages[pages[index].key], mayKeep(index, record),
                      record.path == pages[index].location.filePath, intact[record.path] == record.hash else { return nil }
                return record
            }
        }
        let pending = pages.indices.filter { reused[$0] == nil }
        progress.begin("Rendering", total: pending.count)
        let results = timings.measure("render") {
            renderPages(
                pending, of: pages, listing: { listings?[$0] ?? listing($0) }, graph: graph, plan: plan, renderer: renderer,
                intact: intact, staging: lastOutput?.staging)
        }

        var files: [OutputFile] = []
        var renderedCount = 0
        var missingComponents: [String: [String]] = [:]
        var warnings = Set<BuildCache.Warning>()
        // Which records are renewed matters only to the page records of the last build's cache,
        // which the next one continues: a build without one does not note them (a set of a
        // hundred thousand paths, grown by rehashing, was a fifth of this phase).
        let notesRenewal = previous != nil
        timings.measure("page records") {
            // When no language before this one made records, and its pages are as many as the
            // last build's records, those are most likely these pages' own: they are taken as a
            // whole, the rendered pages' replaced, unless a rendered page turns out to have none
            // there, or a page failed. Inserting ten thousand kept records one by one was most of
            // a one-story rebuild's phase.
            let carried = output.pages.isEmpty ? previous.flatMap { $0.pages.count == pages.count ? $0.pages : nil } : nil
            var carries = carried != nil
            var renewed: [(key: String, record: BuildCache.Page)] = []
            output.kept.reserveCapacity(output.kept.count + pages.count - pending.count)
            if !carries { output.pages.reserveCapacity(output.pages.count + pages.count) }
            if notesRenewal { output.renewedPages.reserveCapacity(output.renewedPages.count + pending.count) }
            var renderedInOrder = results.makeIterator()
            for index in pages.indices {
                var record: BuildCache.Page
                if let kept = reused[index] {
                    output.kept.insert(kept.path)
                    record = kept
                } else {
                    switch renderedInOrder.next()! {
                    case .success(let (rendered, file))?:
                        renderedCount += 1
                        switch file {
                        case .changed(let file): files.append(file)
                        case .intact(let path, _): output.kept.insert(path)
                        }
                        record = BuildCache.Page(
                            fingerprint: fingerprints?[index] ?? BuildCache.Page.unknownFingerprint, path: file.path, rendered: rendered,
                            hash: file.hash)
                        if notesRenewal { output.renewedPages.insert(pages[index].key) }
                        if carried != nil {
                            renewed.append((pages[index].key, record))
                            if carried?[pages[index].key] == nil { carries = false }
                        }
                    case .failure(let error)?:
                        let location = (error as? PageRenderError)?.story ?? pages[index].location.url
                        output.diagnostics.append(.error(location, "\((error as? PageRenderError)?.message ?? "\(error)")"))
                        carries = false
                        continue
                    case nil:
                        carries = false
                        continue
                    }
                }
                if carried == nil { output.pages[pages[index].key] = record }
                for component in record.missingComponents { missingComponents[component, default: []].append(pages[index].name) }
                for warning in record.warnings where warnings.insert(warning).inserted {
                    output.diagnostics.append(.warning(warning.location, warning.message))
                }
            }
            if let carried {
                if carries {
                    output.pages = carried
                } else {
                    for (index, kept) in reused.enumerated() { if let kept { output.pages[pages[index].key] = kept } }
                }
                for (key, record) in renewed { output.pages[key] = record }
            }
        }
        output.diagnostics += missingComponents.keys.sorted().map { component in
            let users = missingComponents[component]!
            let named = users.prefix(5).joined(separator: ", ") + (users.count > 5 ? " and \(users.count - 5) more" : "")
            return Diagnostic(
                severity: settings.strict ? .error : .warning,
                location: "\(settings.templates)/components/\(component).mustache",
                message: "no template for component '\(component)', used by \(named); its blocks render as nothing")
        }
        let reusedCount = pages.count - pending.count
        progress.finish("Rendered \(counted(renderedCount, "page"))" + (reusedCount == 0 ? "" : ", kept \(reusedCount) unchanged"))
        return files
    }

    /// The pages to render when the content changed since the last build in some stories'
    /// content alone (``ContentEdit``) and the readers that build kept fit this graph and plan:
    /// those that read it, and the state of the content now. Nil when the pages must be
    /// fingerprinted instead: no readers kept (or `serve`'s build, which keeps its own), readers
    /// that do not fit, an edit of more than content, or one that changed what every page reads.
    private func contentEdit(of plan: PagePlan, graph: LinkGraph, previous: BuildCache) -> (pages: [Int], state: String)? {
        guard keepsReaders, notesContentReads, !keepsServedSite, plan.readsHeadsAlone, let kept = previous.readers,
              let state = previous.contentState, kept.fit(graph, pageCount: plan.pages.count), let parsedFiles,
              let edit = ContentEdit(graph: graph, from: state, earlier: parsedFiles.earlierVersions, jobs: settings.jobs),
              let pages = kept.readers.pages(showingContentOf: edit.positions, storyCount: graph.stories.count)
        else { return nil }
        return (pages, edit.state)
    }

    /// What rendering a page made of its file.
    private enum RenderedFile {
        /// Bytes for the write, or put in the staging folder already.
        case changed(OutputFile)
        /// The bytes of the file the last build left at `path`, intact: that file is kept.
        case intact(path: String, hash: String)

        var path: String {
            switch self {
            case .changed(let file): file.path
            case .intact(let path, _): path
            }
        }

        var hash: String {
            switch self {
            case .changed(let file): file.hash
            case .intact(_, let hash): hash
            }
        }
    }

    /// Renders the pages at `pending` on at most `--jobs` threads, each result at its place in
    /// `pending`. A page's file (and so its content hash) is made on the rendering thread too, and
    /// goes to `staging` from there, unless it is the `intact` file (path → content hash) the
    /// last build left, which is kept (a template edited where this page does not show it).
    private func renderPages(
        _ pending: [Int], of pages: [PlannedPage], listing: @Sendable (Int) -> PageListing, graph: LinkGraph, plan: PagePlan,
        renderer: PageRenderer, intact: [String: String], staging: PageStaging?
    ) -> [Result<(RenderedPage, RenderedFile), any Error>?] {
        let progress = self.progress
        // Each page's result goes straight to its place: gathered from a list, each was copied (a
        // retain of its strings and arrays) and the list freed (a release of each), on one thread.
        var results = [Result<(RenderedPage, RenderedFile), any Error>?](repeating: nil, count: pending.count)
        results.withUnsafeMutableBufferPointer { results in
            ParallelWork.forEach(count: pending.count, jobs: settings.jobs) { position in
                defer { progress.advance() }
                let index = pending[position]
                let page = pages[index]
                results[position] = Result<(RenderedPage, RenderedFile), any Error> {
                    var rendered = try Self.render(page, listing: listing(index), graph: graph, plan: plan, renderer: renderer)
                    let file = OutputFile(path: page.location.filePath, text: rendered.html)
                    rendered.html = ""  // the file holds the bytes now; keeping both would double peak memory
                    if intact[file.path] == file.hash { return (rendered, .intact(path: file.path, hash: file.hash)) }
                    return (rendered, .changed(staging?.put(file) ?? file))
                }
            }
        }
        // The pages held for a write in place that the staging folder's opening ruled out go
        // there now, rather than wait in memory for the write (70 MB at 100,000 pages).
        if let staging, staging.staged != nil {
            results.withUnsafeMutableBufferPointer { results in
                ParallelWork.forEach(count: pending.count, jobs: settings.jobs) { position in
                    guard case .success((let page, .changed(let file)))? = results[position], !file.isStaged else { return }
                    results[position] = .success((page, .changed(staging.putHeld(file))))
                }
            }
        }
        return results
    }

    /// One page, by its kind.
    static func render(
        _ page: PlannedPage, listing: PageListing, graph: LinkGraph, plan: PagePlan, renderer: PageRenderer
    ) throws -> RenderedPage {
        switch page.kind {
        case .story(let story), .listingPage(let story, _):
            // By position, each page's URL found in the plan without a lookup by UUID.
            var backlinks: [LinkedPage] = []
            for source in graph.position(of: story).map(graph.backlinkPositions(to:)) ?? [] {
                guard let url = plan.url(ofStoryAt: source) else { continue }
                backlinks.append(LinkedPage(story: graph.stories[source].story, url: url))
            }
            return try renderer.render(story, backlinks: backlinks, listing: listing, url: page.location.url)
        case .tag(let slug, _):
            let tag = plan.tags!.tag(slug: slug)!
            return try renderer.render(tag: TagPage(
                name: tag.name, slug: tag.slug, count: tag.stories.count, url: page.location.url, listing: listing))
        case .tagIndex:
            let tags = plan.tags!.tags.map { TagSummary(name: $0.name, slug: $0.slug, url: plan.tagPageURL(of: $0.name) ?? "", count: $0.stories.count) }
            return try renderer.render(tagIndex: tags, url: page.location.url, listing: listing)
        }
    }

    /// `404.html` from `404.mustache`, or the built-in page.
    private func notFoundPage(_ renderer: PageRenderer, into output: inout Output) -> OutputFile {
        do {
            if let page = try renderer.render404() {
                return OutputFile(path: "404.html", text: page.html)
            }
        } catch {
            output.diagnostics.append(.error("\(settings.templates)/404.mustache", "\((error as? PageRenderError)?.message ?? "\(error)")"))
        }
        let title = settings.site["title"]?.stringValue
        let rootPath = PageRenderer.rootPath(of: settings.baseURL)
        return OutputFile(path: "404.html", text: NotFoundPage.html(siteTitle: title, rootPath: rootPath))
    }

    /// The files of `Templates/assets/`, to be written under `assets/`.
    private func assets(into output: inout Output) -> [OutputFile] {
        let folder = workingDirectory.resolving(settings.templates).appendingPathComponent("assets", isDirectory: true)
        let (files, problems) = FolderFiles.read(folder, as: "assets/", displayPath: "\(settings.templates)/assets")
        output.diagnostics += problems
        return files
    }

    private func folderExists(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: workingDirectory.resolving(path).path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
