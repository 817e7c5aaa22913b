import Foundation
import Preview
import SiteBuild
import StorySource

/// The builds of `storysite serve`: generate, write if there was no error, report, then tell the
/// open pages: reload once the new files are in place, or show the errors (the last good site
/// stays on disk and in the browser).
///
/// Each rebuild reads `storysite.json` again under the same command line, so a saved setting
/// applies at once and a broken file fails like a broken template. The folders serve cannot
/// switch while running (the output, the watched source and templates) keep their first values.
actor ServeBuilder {
    private let arguments: ParsedArguments
    private let context: CommandContext
    private let firstOptions: BuildOptions
    private let output: URL
    private let liveReload: LiveReload
    /// The content files as last parsed: a save re-reads only the files it changed.
    private let parsedFiles = ParsedFileCache()
    /// Where each good build leaves its model, for the Visual Editor; nil without it.
    private let siteModels: SiteModelStore?
    /// The folder settings whose change was last reported as needing a restart, so that each
    /// change is reported once, not on every rebuild.
    private var ignoredChanges: [String] = []

    init(
        arguments: ParsedArguments, options: BuildOptions, context: CommandContext, output: URL, liveReload: LiveReload,
        siteModels: SiteModelStore? = nil
    ) {
        self.arguments = arguments
        self.siteModels = siteModels
        firstOptions = options
        self.context = context
        self.output = output
        self.liveReload = liveReload
    }

    /// The first build, with progress, from the options serve started with.
    func buildFirst() async {
        await build(firstOptions, log: DiagnosticLog(), first: true)
    }

    /// A rebuild after a save, with `storysite.json` as it is now.
    func rebuild() async {
        var log = DiagnosticLog()
        guard let options = currentOptions(log: &log) else {
            fail(log)
            return
        }
        await build(options, log: log, first: false)
    }

    private func build(_ options: BuildOptions, log: DiagnosticLog, first: Bool) async {
        let clock = ContinuousClock()
        let started = clock.now
        let progress = Progress(console: context.console, quiet: options.quiet || !first)
        var log = log
        let outcome = await IncrementalBuild(
            settings: options.settings, workingDirectory: context.workingDirectory, output: output, progress: progress,
            parsedFiles: parsedFiles, siteModels: siteModels
        ).run()
        log.add(contentsOf: outcome.diagnostics)
        guard let summary = outcome.summary, !log.hasErrors else {
            fail(log)
            return
        }
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
