import Foundation
import SiteBuild
import StorySource

/// `storysite pull`: crawl the Storyblok space like a build and save every story reached as a
/// folder the local source reads, so later builds and previews run offline.
struct PullCommand: Command {
    static let spec = CommandSpec(
        name: "pull",
        abstract: "Save the stories a build would read from the Storyblok API into a folder.",
        discussion: """
            Crawls the space from the entry stories, like a build, and writes every story reached as
            <dir>/<full_slug>.json ({"story": ...}). Build from that folder with --source <dir>, or
            keep it as a --fallback for when the API cannot be reached. Needs an access token
            (STORYBLOK_TOKEN or --token).
            """,
        options: [
            .value("to", "dir", help: "The folder to write the stories into (new, empty, or pulled before)."),
            .flag("force", help: "Write into a non-empty folder that pull did not make (never deletes its files)."),
        ] + BuildOptions.sourceSpecOptions.filter { !["source", "fallback"].contains($0.name) }
            + [.flag("quiet", help: "Print only errors.")])

    let arguments: ParsedArguments
    let context: CommandContext

    func run() async throws -> Int32 {
        let configuration = try Configuration.load(from: context.workingDirectory)
        guard let destination = arguments.string("to") else {
            throw UsageError(message: "Missing expected option '--to <dir>'", spec: Self.spec)
        }
        var options = try BuildOptions(arguments: arguments, configuration: configuration, environment: context.environment)
        // A pull must come from the API: a fallback folder from storysite.json would be copied silently.
        options.fallback = nil
        guard options.api != nil else {
            throw UsageError(message: "pull reads the Storyblok API, which needs an access token: set STORYBLOK_TOKEN or pass --token", spec: Self.spec)
        }
        let context = self.context.redacting(options.secrets)
        let started = ContinuousClock.now
        let progress = Progress(console: context.console, quiet: options.quiet)
        var log = DiagnosticLog()
        let crawl = await SiteGenerator(settings: options.settings, workingDirectory: context.workingDirectory, progress: progress)
            .crawlStories()
        log.add(contentsOf: crawl.diagnostics.filter { $0.severity == .error })
        var written: [String] = []
        if let graph = crawl.graph, !log.hasErrors {
            do {
                written = try PulledFolderWriter.write(
                    stories: graph.stories.map(\.story), to: context.url(destination), force: arguments.flag("force"))
            } catch {
                log.add(.error(destination, error.description))
            }
        }
        context.printProblems(log, quiet: options.quiet)
        guard !log.hasErrors else { return StorySite.ExitCode.failure }
        if !options.quiet {
            let seconds = String(format: "%.2f", (ContinuousClock.now - started).seconds)
            context.console.out("Pulled \(counted(written.count, "story", "stories")) into \(destination) in \(seconds) s\n")
        }
        return StorySite.ExitCode.success
    }
}
