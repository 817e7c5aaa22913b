import Foundation
import SiteBuild
import StoryModel
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
            (STORYBLOK_TOKEN or --token). The baseURL of storysite.json, when set, counts as a
            build counts it (links to the site's own absolute URLs reach stories), so a pull
            holds every story a build reads.
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
        if !crawl.graphs.isEmpty, !log.hasErrors {
            do {
                written = try PulledFolderWriter.write(
                    stories: Self.stories(of: crawl.graphs), to: context.url(destination), force: arguments.flag("force"))
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

    /// Every story reached, in any language, as a folder holds it: the default language's
    /// version with each other language's differing fields folded in as `__i18n__` fields, so
    /// that a build from the folder shows every language as the API did.
    private static func stories(of graphs: [LanguageGraph]) -> [Story] {
        var order: [String] = []
        var stories: [String: Story] = [:]
        for edition in graphs {
            for node in edition.graph.stories {
                let story = node.story
                guard let existing = stories[story.uuid] else {
                    order.append(story.uuid)
                    stories[story.uuid] = story
                    continue
                }
                if let language = edition.language, !language.isDefault {
                    stories[story.uuid] = existing.addingTranslation(story, language: language.code)
                }
            }
        }
        return order.map { stories[$0]! }
    }
}
