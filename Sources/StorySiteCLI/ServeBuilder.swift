import Foundation
import Preview
import SiteOutput

/// One build for `storysite serve`: generate, write if there was no error, report, then tell
/// the open pages: reload once the new files are in place, or show the errors (the last good
/// site stays on disk and in the browser).
struct ServeBuilder: Sendable {
    let options: BuildOptions
    let context: CommandContext
    let output: URL
    let liveReload: LiveReload

    /// Builds once; `first` tells the first build (with progress) from a rebuild after a save.
    func build(first: Bool) async {
        let clock = ContinuousClock()
        let started = clock.now
        let progress = Progress(console: context.console, quiet: options.quiet || !first)
        var log = DiagnosticLog()
        let site = await SiteGenerator(options: options, context: context, progress: progress).generate()
        log.add(contentsOf: site.diagnostics)
        var summary: SiteWriter.Summary?
        if !log.hasErrors {
            do throws(OutputError) {
                summary = try SiteWriter(output: output, displayPath: options.output, jobs: options.jobs).write(site.files)
            } catch {
                log.add(.error(error.path, error.message))
            }
        }
        context.printProblems(log, quiet: options.quiet)

        guard let summary, !log.hasErrors else {
            liveReload.showProblems(log.entries.filter { $0.severity == .error }.map {
                PreviewProblem(location: $0.location, message: $0.message)
            })
            if !options.quiet {
                context.console.err(
                    "Build failed with \(counted(log.errorCount, "error")); still serving the last good \(options.output)/; "
                        + "open pages show the errors until a save fixes them.\n")
            }
            return
        }
        liveReload.reload()
        if !options.quiet {
            context.console.out(
                "\(first ? "Built" : "Rebuilt") \(counted(site.pageCount, "page")) in \(String(format: "%.2f", (clock.now - started).seconds)) s "
                    + "(\(summary)), "
                    + "\(counted(log.warningCount, "warning"))\n")
        }
    }
}
