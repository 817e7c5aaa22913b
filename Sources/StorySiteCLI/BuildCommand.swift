import Foundation
import SiteBuild
import SiteOutput

/// `storysite build`: crawl, render and write the site, reporting every problem at once.
struct BuildCommand: Command {
    static let spec = CommandSpec(
        name: "build",
        abstract: "Build the site into the output folder.",
        discussion: """
            Crawls the stories from the entry stories, renders every story reached through the
            templates and writes the pages, sitemap.xml, robots.txt, 404.html and the theme's assets.
            Settings may also come from storysite.json in the working folder; flags override it.
            A failed build leaves the output folder as it was.
            """,
        options: BuildOptions.specOptions + [.flag("timings", help: "Print how long each phase of the build took.")])

    let arguments: ParsedArguments
    let context: CommandContext

    func run() async throws -> Int32 {
        let configuration = try Configuration.load(from: context.workingDirectory)
        let options = try BuildOptions(arguments: arguments, configuration: configuration, environment: context.environment)
        let context = self.context.redacting(options.secrets)
        let started = ContinuousClock.now
        let progress = Progress(console: context.console, quiet: options.quiet)
        var log = DiagnosticLog()

        let output: URL
        do throws(OutputError) {
            output = try options.outputFolder(in: context)
        } catch {
            log.add(.error(error.path, error.message))
            return finish(log, options: options)
        }

        let timings = PhaseTimings()
        var build = IncrementalBuild(
            settings: options.settings, workingDirectory: context.workingDirectory, output: output, progress: progress, timings: timings)
        build.exitsAfterwards = true
        let outcome = await build.run()
        if arguments.flag("timings") { context.console.err(timings.report) }
        log.add(contentsOf: outcome.diagnostics)
        guard let summary = outcome.summary, !log.hasErrors else { return finish(log, options: options) }
        return report(log, summary, pages: outcome.pageCount, stories: outcome.storyCount, since: started, options: options)
    }

    /// Prints the problems and the summary line; returns the exit code.
    private func report(
        _ log: DiagnosticLog, _ summary: SiteWriter.Summary, pages: Int, stories: Int, since started: ContinuousClock.Instant,
        options: BuildOptions
    ) -> Int32 {
        let seconds = (ContinuousClock.now - started).seconds
        let status = finish(log, options: options)
        if !options.quiet {
            context.console.out(
                "Built \(counted(pages, "page")) from \(counted(stories, "story", "stories")) "
                    + "in \(String(format: "%.2f", seconds)) s "
                    + "(\(summary)), "
                    + "\(counted(log.warningCount, "warning"))\n")
        }
        return status
    }

    /// Prints the collected problems (only errors under `--quiet`) and picks the exit code.
    private func finish(_ log: DiagnosticLog, options: BuildOptions) -> Int32 {
        let context = self.context.redacting(options.secrets)
        context.printProblems(log, quiet: options.quiet)
        guard log.hasErrors else { return StorySite.ExitCode.success }
        if !options.quiet {
            let outputExists = FileManager.default.fileExists(atPath: context.url(options.output).path)
            context.console.err(
                "Build failed with \(counted(log.errorCount, "error")); "
                    + (outputExists ? "\(options.output)/ was left as it was.\n" : "nothing was written.\n"))
        }
        return StorySite.ExitCode.failure
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
