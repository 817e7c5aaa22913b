import Foundation
import ParallelWork
import SiteOutput
import StoryCrawl
import StoryModel
import StorySource

/// One build of the site into its output folder that reuses what the last build left there
/// (see ``BuildCache``): nothing is touched when no input changed, and otherwise only the pages
/// whose inputs changed are rendered again. `build` runs it once; `serve` on every save.
public struct IncrementalBuild {
    let settings: SiteSettings
    /// The folder the settings' paths are relative to.
    let workingDirectory: URL
    /// The output folder, resolved (and checked to be safe to replace by the caller).
    let output: URL
    let progress: any BuildProgress
    /// Parsed content files kept from the previous build of the same process (`serve`); without
    /// them, a build of a content folder reads and writes ``KeptContent`` in the output folder.
    var parsedFiles: ParsedFileCache?
    /// References found by the previous builds of the same process (`serve`).
    var referenceCache: ReferenceCache?
    /// The latest crawl of the same process (`serve`), brought up to date when a save moved no
    /// edge; without it, a build of a content folder starts from the crawl in ``KeptContent``.
    public var crawlMemory: CrawlMemory?
    /// Where the phases' durations are recorded.
    var timings: PhaseTimings
    /// Where a successful build leaves its ``SiteModel`` (`serve` with the Visual Editor).
    var siteModels: SiteModelStore?
    /// The API's stories kept between builds (`serve`), read instead of the API itself.
    public var space: SpaceSnapshot?
    /// Whether a successful build that generates the site keeps what `serve` needs to render
    /// only the pages the next save changes (``Outcome/served``).
    public var keepsServedSite = false
    /// Whether the site is to be generated even when nothing changed, for a caller that has
    /// nothing of it kept yet (see ``keepsServedSite``).
    public var generatesUnchanged = false
    /// Above how many bytes of story files the content waits in a file while the build runs
    /// (``SiteGenerator/contentStore``): a build of its own parks a large folder's; `serve`,
    /// which keeps its stories from one rebuild to the next, never does.
    var contentParkedAbove: Int?
    /// Whether the process exits once the build is done (`storysite build`): the stories, graph
    /// and pages it made are then left for the kernel to take back whole, not freed an object
    /// at a time while the output is written.
    public var exitsAfterwards = false
    /// What a build with no cache to reuse, or that parks its content, does first
    /// (``HugePages/giveUp()``); tests observe it.
    var givesUpHugePages: @Sendable () -> Void = { HugePages.giveUp() }

    /// A build of the site `settings` describe (paths relative to `workingDirectory`) into
    /// `output`, the settings' output folder resolved. With `siteModels`, a successful build
    /// stores its model there, and a store still empty makes the build generate even when
    /// nothing changed.
    public init(
        settings: SiteSettings, workingDirectory: URL, output: URL, progress: any BuildProgress = SilentProgress(),
        parsedFiles: ParsedFileCache? = nil, referenceCache: ReferenceCache? = nil, timings: PhaseTimings = PhaseTimings(),
        siteModels: SiteModelStore? = nil
    ) {
        self.settings = settings
        self.workingDirectory = workingDirectory
        self.output = output
        self.progress = progress
        self.parsedFiles = parsedFiles
        contentParkedAbove = parsedFiles == nil ? SiteGenerator.contentKeptInMemory : nil
        self.referenceCache = referenceCache
        self.timings = timings
        self.siteModels = siteModels
    }

    /// What a build did.
    public struct Outcome {
        /// Every problem found; with an error among them, the output folder was left as it was.
        public var diagnostics: [Diagnostic]
        /// What the write did; nil when errors stopped the build before it.
        public var summary: SiteWriter.Summary?
        /// How many pages the site has, and how many stories the crawl reached.
        public var pageCount = 0
        public var storyCount = 0
        /// What `serve` keeps of the site, when asked for and the site is one it can keep.
        public var served: ServedSite?
    }

    /// Builds the site: generates what changed and writes it, or reports that nothing did. The
    /// output folder is locked throughout (``OutputLock``); a build that finds it locked stops
    /// at once, naming the holder, and changes nothing.
    public func run() async -> Outcome {
        let lock: OutputLock
        do throws(OutputError) {
            lock = try OutputLock.acquire(for: output, displayPath: settings.output)
        } catch {
            return Outcome(diagnostics: [.error(error.path, error.message)])
        }
        defer { withExtendedLifetime(lock) {} }
        return await locked()
    }

    private func locked() async -> Outcome {
        // Huge pages spare a rebuild that decodes the last build's caches most of its page faults.
        // A build with no cache to reuse is slower with them (by 4% at 10,000 stories), and one
        // of a large folder, bounded by its memory, would hold a tenth more. A first build gives
        // them up before it lists the content folder, which at 100,000 stories is 20 MB.
        let hasCache = FileManager.default.fileExists(atPath: output.appendingPathComponent(BuildCache.relativePath).path)
        if !hasCache { givesUpHugePages() }
        let inputs = timings.measure("inputs") { BuildInputs(settings: settings, workingDirectory: workingDirectory) }
        let writer = SiteWriter(output: output, displayPath: settings.output, jobs: settings.jobs)
        let cache = timings.measure("cache read") { BuildCache.read(in: output, key: inputs.key) }
        // A Visual Editor still waiting for its first model needs the site generated, changed or not.
        let needsModel = siteModels.map { $0.current == nil } ?? false
        if let cache, inputs.content != nil, cache.content == inputs.content, !needsModel, !generatesUnchanged,
           cache.output != nil,
           cache.output == timings.measure("output check", { writer.currentFingerprint() }) {
            // Nothing changed since the last build: report what it reported, touch nothing.
            return Outcome(
                diagnostics: cache.warnings.map { .warning($0.location, $0.message) },
                summary: SiteWriter.Summary(written: 0, unchanged: cache.fileCount, removed: 0),
                pageCount: cache.pageCount, storyCount: cache.storyCount)
        }

        let parksContent = SiteGenerator.parksContent(of: inputs.contentListing, above: contentParkedAbove)
        if hasCache, cache == nil || parksContent { givesUpHugePages() }

        // What the last build left: the output folder, read while the content is loaded and
        // crawled (nothing needs it before the pages that can be kept are looked for); and the
        // page records and, for a build of a content folder without a cache of its own (`serve`
        // keeps one), the content it kept (the API's stories have no files to keep), read on two
        // threads now.
        let previousOutput = BackgroundValue { PreviousOutputRead(by: writer) }
        let readsKeptContent = parsedFiles == nil && settings.api == nil
        let (kept, previous) = timings.measure("previous build") {
            ParallelWork.both(
                jobs: settings.jobs,
                {
                    readsKeptContent
                        ? KeptContent(reading: output, languages: settings.rememberedCrawlLanguages, parksContent: parksContent) : nil
                },
                { cache?.readingPages(in: output) })
        }
        // One nameless file beside the output folder holds all that waits there: the content,
        // kept or read, and the caches on their way to disk.
        let contentStore = parksContent ? kept?.parking ?? TapeStore.beside(output) : nil
        let site = await generate(
            keeping: kept, previous: previous, previousOutput: previousOutput, key: inputs.key, listedContent: inputs.contentListing,
            contentStore: contentStore)
        let outcome = write(site, inputs: inputs, writer: writer, over: previousOutput.value, keeping: kept, previous: previous)
        // With the generator gone, these hold the last references to every story read.
        let made = (consume site, consume previous, consume kept, consume previousOutput)
        if exitsAfterwards {
            BackgroundRelease.abandon(made)
        } else {
            BackgroundRelease.release(made)
        }
        return outcome
    }

    /// The site generated with the caches of this process, or the content `kept` on disk; the
    /// content folder's stories keep their content in `contentStore`, when there is one.
    private func generate(
        keeping kept: KeptContent?, previous: BuildCache?, previousOutput: BackgroundValue<PreviousOutputRead>, key: String,
        listedContent: ListedFolder?, contentStore: TapeStore?
    ) async -> SiteGenerator.Output {
        var generator = SiteGenerator(
            settings: settings, workingDirectory: workingDirectory, progress: progress, parsedFiles: parsedFiles ?? kept?.files,
            timings: timings)
        generator.previousOutput = previousOutput
        generator.listedContent = listedContent
        generator.referenceCache = kept?.references ?? referenceCache
        generator.space = space
        generator.crawlMemory = crawlMemory ?? kept?.crawl
        generator.keepsServedSite = keepsServedSite
        generator.keepsContentReaders = true
        generator.contentStore = contentStore
        return await generator.generate(previous: previous, key: key)
    }

    /// Writes the generated site over the output folder as `previousOutput` found it, with the
    /// pages its staging folder holds, and the caches for the next build (continuing the page
    /// records of `previous`); with errors, writes nothing and discards the staging folder.
    private func write(
        _ site: SiteGenerator.Output, inputs: BuildInputs, writer: SiteWriter, over previousOutput: PreviousOutputRead,
        keeping kept: KeptContent?, previous: BuildCache?
    ) -> Outcome {
        let staged = previousOutput.staging?.staged
        var outcome = Outcome(diagnostics: site.diagnostics, pageCount: site.pageCount, storyCount: site.storyCount)
        guard !site.hasErrors else {
            staged?.discard()
            return outcome
        }
        let keptEncoding = kept?.encodeInBackground(into: writer.output.storysiteSibling("kept"))

        let written: SiteWriter.Written
        do throws(OutputError) {
            written = try timings.measure("write") { () throws(OutputError) in
                // The generator looked for paths below other paths (its "path check"), naming the
                // pages; looking again cost a build of 100,000 pages 36 ms on one thread.
                try writer.write(site.files, keeping: site.kept, over: previousOutput.output, staged: staged, foldersChecked: true)
            }
        } catch {
            keptEncoding.map(KeptContent.discard)
            outcome.diagnostics.append(.error(error.path, error.message))
            return outcome
        }
        outcome.summary = written.summary
        outcome.served = site.served
        if let model = site.model { siteModels?.store(model) }
        // The page records and the kept content are files of their own, written side by side.
        timings.measure("cache write") {
            _ = ParallelWork.both(
                jobs: settings.jobs,
                { writeCache(inputs: inputs, site: site, output: written.fingerprint, continuing: previous?.pagesRead) },
                { if let keptEncoding { KeptContent.place(keptEncoding, in: output) } })
        }
        return outcome
    }

    /// Records what this build did for the next one, its page records a continuation of
    /// `previous` where they can be. The cache only saves time: a build whose cache cannot be
    /// written has still succeeded.
    private func writeCache(
        inputs: BuildInputs, site: SiteGenerator.Output, output fingerprint: String?, continuing previous: BuildCache.PagesRead?
    ) {
        let next = BuildCache(
            key: inputs.key, content: inputs.content, output: fingerprint,
            storyCount: site.storyCount, pageCount: site.pageCount, fileCount: site.files.count + site.kept.count,
            warnings: site.diagnostics.map { BuildCache.Warning(location: $0.location, message: $0.message) }, sitemap: site.sitemap,
            pages: site.pages, contentState: site.contentState, readersState: site.readersState)
        try? next.write(in: output, continuing: previous, renewed: site.renewedPages, readers: site.keptReaders)
    }
}
