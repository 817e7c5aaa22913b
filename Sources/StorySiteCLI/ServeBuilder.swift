import Foundation
import Preview
import SiteBuild
import StoryCrawl
import StorySource

/// The builds of `storysite serve`: generate, write if there was no error, report, then tell the
/// open pages: reload once the new files are in place, or show the errors (the last good site
/// stays on disk and in the browser).
///
/// Each rebuild reads `storysite.json` again under the same command line, so a saved setting
/// applies at once and a broken file fails like a broken template. The folders serve cannot
/// switch while running (the output, the watched source and templates) keep their first values.
///
/// With the API as source, the builds read a ``SpaceSnapshot`` and, before building, bring it
/// up to date with the changes asked for (``ServeRefresh`` asks): the whole space on the first
/// build, stories by id, or whatever a new `cv` brought. When the API fails, the last good site
/// stays, the error shows over the open pages with the time of the next try, and the same work
/// is tried again with backoff (see ``takeRetryDelay()``).
actor ServeBuilder {
    /// What the next rebuild fetches before building.
    struct PendingWork: Sendable {
        /// Empty the snapshot and read the whole space.
        var crawl = false
        /// Fetch what changed since the newest story held (a new `cv`).
        var changed = false
        /// Fetch these stories again.
        var ids: Set<Int> = []
        /// Build even when no story changed (a template or `storysite.json` was saved).
        var save = false
        /// The files the saves changed, as the watcher tells them; unknown for work of another kind.
        var saved = FolderChanges.empty

        mutating func merge(_ other: PendingWork) {
            crawl = crawl || other.crawl
            changed = changed || other.changed
            ids.formUnion(other.ids)
            save = save || other.save
            saved.merge(other.saved)
        }

        var asksForStories: Bool { crawl || changed || !ids.isEmpty }
    }

    private let arguments: ParsedArguments
    private let context: CommandContext
    private let firstOptions: BuildOptions
    private let output: URL
    private let liveReload: LiveReload
    /// The API's stories between builds; nil for a folder source.
    let space: SpaceSnapshot?
    /// The content files as last parsed, and the references found in them, from the last build's
    /// kept content on: a save re-reads and walks only the files it changed.
    private let parsedFiles: ParsedFileCache
    private let referenceCache: ReferenceCache
    /// The latest crawl, brought up to date instead of crawling again (see ``SiteBuild/CrawlMemory``).
    private let crawlMemory: CrawlMemory
    /// The last good build of a content folder, for a save that edits only stories' content:
    /// then only the pages that show them are rendered again (``ServedSite``).
    private var served: ServedSite?
    /// Where each good build leaves its model, for the Visual Editor; nil without it.
    private let siteModels: SiteModelStore?
    /// The folder settings whose change was last reported as needing a restart, so that each
    /// change is reported once, not on every rebuild.
    private var ignoredChanges: [String] = []
    private var pending = PendingWork()
    /// Whether a build has succeeded since serve started (the first prints as "Built").
    private var hasBuilt = false
    /// API failures in a row, for the backoff; 0 after a success.
    private var failuresInARow = 0
    private var retryDelay: Duration?

    init(
        arguments: ParsedArguments, options: BuildOptions, context: CommandContext, output: URL, liveReload: LiveReload,
        siteModels: SiteModelStore? = nil, space: SpaceSnapshot? = nil
    ) {
        self.arguments = arguments
        self.siteModels = siteModels
        firstOptions = options
        self.context = context
        self.output = output
        self.liveReload = liveReload
        self.space = space
        (parsedFiles, referenceCache, crawlMemory) = KeptContent.servingCaches(from: output)
    }

    /// The first build, with progress, from the options serve started with.
    func buildFirst() async {
        await build(firstOptions, log: DiagnosticLog(), first: true)
    }

    /// A first build from the pulled folder `fallback`, for a start with nothing built yet
    /// while the API is read in the background.
    func buildFallback(_ fallback: String) async {
        var options = firstOptions
        options.settings.api = nil
        options.settings.source = fallback
        options.settings.fallback = nil
        let outcome = await IncrementalBuild(
            settings: options.settings, workingDirectory: context.workingDirectory, output: output, parsedFiles: parsedFiles,
            referenceCache: referenceCache
        ).run()
        var log = DiagnosticLog()
        log.add(contentsOf: outcome.diagnostics)
        context.printProblems(log, quiet: true)
        if outcome.summary != nil, !firstOptions.quiet {
            context.console.out("Built \(counted(outcome.pageCount, "page")) from the pulled folder '\(fallback)' to start with\n")
        }
    }

    /// Notes `work` for the next rebuild.
    func ask(_ work: PendingWork) {
        pending.merge(work)
    }

    /// The delay after which the work of a rebuild that failed on the API is to be tried
    /// again; nil when the last rebuild did not fail so (asked once: it is cleared).
    func takeRetryDelay() -> Duration? {
        defer { retryDelay = nil }
        return retryDelay
    }

    /// A rebuild after a save, or for the changes asked for, with `storysite.json` as it is now.
    func rebuild() async {
        var log = DiagnosticLog()
        guard let options = currentOptions(log: &log) else {
            fail(log)
            return
        }
        let work = pending
        pending = PendingWork()
        if let space, work.asksForStories {
            do {
                let changes = try await fetch(work, from: space)
                if !work.crawl, !work.save, changes.isEmpty, hasBuilt {
                    failuresInARow = 0
                    return  // the site is as it was
                }
            } catch {
                pending.merge(work)
                apiFailed(error, space: space)
                return
            }
        }
        if space == nil, served != nil, let paths = savedStoryFiles(work, options: options), rebuildPages(showing: paths) {
            return
        }
        await build(options, log: log, first: !hasBuilt)
    }

    /// The story files `work` saved, when it is saves alone, of files in the content folder
    /// (those the folder does not read, such as an editor's temporary files, left out); nil for
    /// anything else.
    private func savedStoryFiles(_ work: PendingWork, options: BuildOptions) -> [String]? {
        guard !work.asksForStories, let paths = work.saved.paths, !paths.isEmpty else { return nil }
        let content = context.url(options.source).path + "/"
        guard paths.allSatisfy({ $0.hasPrefix(content) }) else { return nil }
        return paths.filter { LocalFolderSource.readsFile(named: URL(fileURLWithPath: $0).lastPathComponent) }.sorted()
    }

    /// Renders again only the pages of the site served that show the stories of the files at
    /// `paths`, when the save did no more than edit their content; false when the site must be
    /// built.
    private func rebuildPages(showing paths: [String]) -> Bool {
        let clock = ContinuousClock()
        let started = clock.now
        let timings = PhaseTimings()
        // Held here alone, the site is brought up to date in place; one that cannot be is dropped.
        guard var site = served.take(), let summary = site.rebuild(
            changing: paths, output: output, references: referenceCache, parsedFiles: parsedFiles, siteModels: siteModels, timings: timings)
        else { return false }
        self.served = site
        if arguments.flag("timings") { context.console.err(timings.report) }
        var log = DiagnosticLog()
        log.add(contentsOf: site.diagnostics)
        context.printProblems(log, quiet: firstOptions.quiet)
        liveReload.reload()
        if !firstOptions.quiet {
            context.console.out(
                "Rebuilt \(counted(site.pageCount, "page")) in \(String(format: "%.2f", (clock.now - started).seconds)) s "
                    + "(\(summary); only the pages that show the saved \(paths.count == 1 ? "story" : "stories")), "
                    + "\(counted(log.warningCount, "warning"))\n")
        }
        return true
    }

    /// Brings the snapshot up to date with `work`; says what changed.
    private func fetch(_ work: PendingWork, from space: SpaceSnapshot) async throws -> SpaceSnapshot.Changes {
        if work.crawl { try await space.reset() }
        var changes = SpaceSnapshot.Changes()
        if work.changed && !work.crawl {
            let refreshed = try await space.refreshChanged()
            changes.updated += refreshed.updated
            changes.otherLanguagesChanged = refreshed.otherLanguagesChanged
        }
        if !work.ids.isEmpty && !work.crawl {
            let refreshed = try await space.refresh(ids: Array(work.ids))
            changes.updated += refreshed.updated
            changes.removed += refreshed.removed
            changes.otherLanguagesChanged = changes.otherLanguagesChanged || refreshed.otherLanguagesChanged
            for id in refreshed.unknownIDs {
                context.console.err("\(space.description): warning: the API knows no story with id \(id); nothing changed for it\n")
            }
        }
        if !changes.isEmpty, !firstOptions.quiet {
            let slugs = (changes.updated + changes.removed).map { $0.fullSlug }
            let shown = slugs.prefix(5).joined(separator: ", ") + (slugs.count > 5 ? " and \(slugs.count - 5) more" : "")
            context.console.out("Fetched \(counted(changes.updated.count, "changed story", "changed stories"))"
                + (changes.removed.isEmpty ? "" : ", removed \(changes.removed.count)") + " (\(shown))\n")
        }
        return changes
    }

    /// After the API failed: keeps the last good site, shows `error` over the open pages with
    /// the time of the next try, and sets the backoff delay (2 s, doubling, at most a minute).
    func apiFailed(_ error: any Error, space: SpaceSnapshot, nextTry: Duration? = nil) {
        failuresInARow += 1
        let delay = nextTry ?? min(.seconds(2) * Int(1 << min(failuresInARow - 1, 5)), .seconds(60))
        if nextTry == nil { retryDelay = delay }
        let at = Date().addingTimeInterval(delay.seconds)
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        let message = "\(error); still serving the last good site; trying again at \(formatter.string(from: at)) (in \(Int(delay.seconds.rounded())) s)"
        let shown = firstOptions.secrets.reduce(message) { TokenRedaction.redact($0, token: $1) }
        liveReload.showProblems([PreviewProblem(location: space.description, message: shown)])
        context.console.err("\(space.description): error: \(shown)\n")
    }

    /// After the API answered again following failures that builds did not clear: clears the
    /// error over the open pages.
    func apiAnswered() {
        guard failuresInARow > 0 else { return }
        failuresInARow = 0
        liveReload.reload()
    }

    private func build(_ options: BuildOptions, log: DiagnosticLog, first: Bool) async {
        let clock = ContinuousClock()
        let started = clock.now
        let progress = Progress(console: context.console, quiet: options.quiet || !first)
        var log = log
        let timings = PhaseTimings()
        var build = IncrementalBuild(
            settings: options.settings, workingDirectory: context.workingDirectory, output: output, progress: progress,
            parsedFiles: parsedFiles, referenceCache: referenceCache, timings: timings, siteModels: siteModels
        )
        build.space = space
        build.crawlMemory = crawlMemory
        build.keepsServedSite = space == nil
        build.generatesUnchanged = space == nil && served == nil
        // Until this build succeeds, saves are built whole: the site kept may be of other settings.
        served = nil
        _ = space?.takeFailure()
        let outcome = await build.run()
        if arguments.flag("timings") { context.console.err(timings.report) }
        log.add(contentsOf: outcome.diagnostics)
        if let space, let failure = space.takeFailure() {
            // The API failed during the crawl: the build is tried again later.
            apiFailed(failure, space: space)
            return
        }
        guard let summary = outcome.summary, !log.hasErrors else {
            fail(log)
            return
        }
        failuresInARow = 0
        hasBuilt = true
        served = outcome.served
        context.printProblems(log, quiet: options.quiet)
        liveReload.reload()
        if !options.quiet {
            context.console.out(
                "\(first ? "Built" : "Rebuilt") \(counted(outcome.pageCount, "page")) in \(String(format: "%.2f", (clock.now - started).seconds)) s "
                    + "(\(summary)), "
                    + "\(counted(log.warningCount, "warning"))\n")
        }
    }

    /// Reports a failed build: prints `log` and shows its errors over the open pages.
    private func fail(_ log: DiagnosticLog) {
        context.printProblems(log, quiet: firstOptions.quiet)
        liveReload.showProblems(log.entries.filter { $0.severity == .error }.map {
            PreviewProblem(location: $0.location, message: $0.message)
        })
        if !firstOptions.quiet {
            context.console.err(
                "Build failed with \(counted(log.errorCount, "error")); still serving the last good \(firstOptions.output)/; "
                    + "open pages show the errors until a save fixes them.\n")
        }
    }

    /// The options from `storysite.json` as it is now and the command line, with the output,
    /// source and templates folders kept as they were (and a warning the first time the file
    /// changes them); nil, with the error in `log`, when the file cannot be used.
    private func currentOptions(log: inout DiagnosticLog) -> BuildOptions? {
        let configuration: Configuration
        do throws(ConfigurationError) {
            configuration = try Configuration.load(from: context.workingDirectory)
        } catch {
            log.add(.error(error.location, error.message))
            return nil
        }
        var options: BuildOptions
        do throws(UsageError) {
            options = try BuildOptions(arguments: arguments, configuration: configuration, environment: context.environment)
        } catch {
            log.add(.error(Configuration.fileName, error.message))
            return nil
        }
        let folders: [(name: String, setting: WritableKeyPath<SiteSettings, String>)] = [
            ("output", \.output), ("source", \.source), ("templates", \.templates),
        ]
        let changed = folders.filter { options.settings[keyPath: $0.setting] != firstOptions.settings[keyPath: $0.setting] }
        for folder in folders { options.settings[keyPath: folder.setting] = firstOptions.settings[keyPath: folder.setting] }
        if space != nil {
            // The snapshot is of the space serve started with; serve does its own falling back.
            options.settings.api = firstOptions.settings.api
            options.settings.fallback = firstOptions.settings.fallback
        }
        if changed.map(\.name) != ignoredChanges {
            ignoredChanges = changed.map(\.name)
            if !changed.isEmpty {
                let names = changed.map { "'\($0.name)'" }.joined(separator: ", ")
                let kept = changed.map { "'\(firstOptions.settings[keyPath: $0.setting])'" }.joined(separator: ", ")
                log.add(.warning(
                    Configuration.fileName,
                    "\(names) cannot change while serving: still using \(kept); "
                        + "restart storysite serve to use the new \(changed.count == 1 ? "value" : "values")"))
            }
        }
        return options
    }
}
