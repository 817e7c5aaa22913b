import Foundation
import HTTPServer
import Preview
import SiteBuild
import SiteOutput
import StorySource

/// `storysite serve`: binds its port, builds the site, serves the output folder on 127.0.0.1,
/// and rebuilds on every save of a story, a template or `storysite.json`, reloading open pages
/// (or showing the build's errors over them). With the API as source it serves what it already
/// has at once and keeps the site fresh through ``ServeRefresh``. `storysite serve DIR` serves a
/// folder as it is.
struct ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Build the site, serve it, and rebuild and reload the browser on every save.",
        discussion: """
            Builds like 'storysite build', serves the output folder and prints its URL. Saving a story,
            a template or storysite.json rebuilds the site and reloads every open page; a failed rebuild
            keeps the last good site and shows its errors over the page until a save fixes them.
            Changing the output, source or templates folder in storysite.json needs a restart.
            With the Storyblok API as source, serves the last build (or the --fallback folder) at once
            and reads the space in the background; then fetches only what changed, on a new cache
            version (--poll) or a webhook to /_storysite/webhook (signed with STORYBLOK_WEBHOOK_SECRET).
            With a folder argument, serves that folder as it is: no build, no watching.
            Stop with Ctrl-C.
            """,
        options: BuildOptions.specOptions + [
            .value("host", "address", help: "The address to listen on, also answered as a Host name. (default: 127.0.0.1)"),
            .value("port", "port", help: "The port to listen on; 0 picks a free one. (default: 8080, or the next free one)"),
            .value("poll", "seconds", help: "With the API: how often to look for a new cache version; 0 turns it off. (default: 10)"),
            .flag("timings", help: "After each build, print how long each phase of it took."),
        ],
        positionals: [.init(name: "dir", help: "A folder to serve as it is, built elsewhere.")])

    /// How patiently the API is asked while serving: serve tries failed work again itself, with
    /// the error on the page meanwhile, so each request gives up sooner than in a build.
    static let retry = StoryblokConfiguration.RetryPolicy(attempts: 3, initialDelay: .milliseconds(500), maximumDelay: .seconds(5))

    let arguments: ParsedArguments
    let context: CommandContext

    func run() async throws -> Int32 {
        let host = arguments.string("host") ?? "127.0.0.1"
        let port = try arguments.integer("port", in: 0...65535)
        if let folder = arguments.positional(0) {
            return try await serveFolder(folder, host: host, port: port)
        }
        let configuration = try Configuration.load(from: context.workingDirectory)
        var options = try BuildOptions(arguments: arguments, configuration: configuration, environment: context.environment)
        let poll = try arguments.integer("poll", in: 0...86_400) ?? 10
        if options.api == nil, arguments.string("poll") != nil {
            throw UsageError(message: "'--poll' reads the Storyblok API, which needs an access token: set STORYBLOK_TOKEN or pass --token", spec: Self.spec)
        }
        let webhookSecret = context.environment["STORYBLOK_WEBHOOK_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        let context = self.context.redacting(options.secrets + (webhookSecret.map { [$0] } ?? []))
        let output: URL
        do throws(OutputError) {
            output = try options.outputFolder(in: context)
        } catch {
            context.console.err(error.description + "\n")
            return StorySite.ExitCode.failure
        }
        // Serve falls back on its own (the last good site stays), so its builds never do.
        let fallback = options.fallback
        if options.api != nil {
            options.settings.fallback = nil
            options.settings.api?.retry = Self.retry
        }

        let liveReload = LiveReload()
        let space = options.api.map { SpaceSnapshot(configuration: $0) }
        let siteModels = options.editorBridge.map { _ in SiteModelStore() }
        let builder = ServeBuilder(
            arguments: arguments, options: options, context: context, output: output, liveReload: liveReload, siteModels: siteModels,
            space: space)
        let refresh = ServeRefresh(builder: builder)
        var routes = ServeRoutes(site: StaticSiteHandler(root: output, liveReload: liveReload))
        if space != nil {
            routes.webhook = ServeWebhook(secret: webhookSecret, refresh: refresh, console: context.console, quiet: options.quiet)
        }
        // With drafts, the Visual Editor; its `change` and `published` fetch the stories again.
        routes.editor = ServeVisualEditor.make(options: options, host: host, models: siteModels) { ids in
            if ids.isEmpty { await refresh.refreshChanged() } else { await refresh.refreshStories(ids: ids) }
        }
        let bound: ServePort.Bound
        do {
            bound = try ServePort.bind(host: host, requested: port) { [routes] in await routes.respond(to: $0) }
        } catch {
            context.console.err("Error: \(error)\n")
            return StorySite.ExitCode.failure
        }
        if let note = bound.note { context.console.out(note + "\n") }

        var background: [Task<Void, Never>] = []
        // Watching starts before the first build, so that a save while it runs is built after it.
        let watched = [options.templates, options.staticFolder] + (options.api == nil ? [options.source] : [])
        let watcher = FolderWatcher(
            folders: watched.map { context.url($0) },
            files: [context.workingDirectory.appendingPathComponent(Configuration.fileName)])
        if let space {
            // Instant start: the last build (or the pulled folder) is served while the API is read.
            let hasLastBuild = FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path)
            if !hasLastBuild, let fallback { await builder.buildFallback(fallback) }
            if !options.quiet {
                let start = hasLastBuild ? "the last build" : fallback.map { "the pulled folder '\($0)'" } ?? "nothing built yet"
                context.console.out("Starting from \(start) while reading \(space.description); open pages reload when it is built\n")
            }
            announce(options.output, host: host, port: bound.port)
            background.append(Task { await refresh.crawl() })
            if poll > 0 {
                background.append(Task { await ServePoller(space: space, refresh: refresh, interval: .seconds(poll)).run() })
            }
        } else {
            await builder.buildFirst()
            announce(options.output, host: host, port: bound.port)
        }

        // Each burst of saves asks for a rebuild at once; one asked for during a rebuild makes
        // exactly one more. Ending the stream waits for the rebuild in progress.
        let rebuilding = Task {
            await withDiscardingTaskGroup { group in
                for await saved in watcher.changes {
                    group.addTask { await refresh.rebuild(saved: saved) }
                }
            }
        }
        await ServeSignals.waitForStop()
        watcher.stop()
        for task in background { task.cancel() }
        await rebuilding.value
        liveReload.disconnectAll()
        bound.server.stop()
        return StorySite.ExitCode.success
    }

    /// `serve DIR`: the folder as it is, without building or watching.
    private func serveFolder(_ folder: String, host: String, port: Int?) async throws -> Int32 {
        if arguments.flag("poll") {
            throw UsageError(message: "'--poll' watches the Storyblok API, but serving the folder '\(folder)' reads none", spec: Self.spec)
        }
        if let option = BuildOptions.specOptions.first(where: { $0.name != "quiet" && arguments.flag($0.name) }) {
            throw UsageError(
                message: "'--\(option.name)' is a build option, but serving the folder '\(folder)' builds nothing", spec: Self.spec)
        }
        let root = context.url(folder)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            context.console.err("\(folder): error: there is no folder to serve here\n")
            return StorySite.ExitCode.failure
        }
        let bound: ServePort.Bound
        do {
            bound = try ServePort.bind(host: host, requested: port) { [handler = StaticSiteHandler(root: root)] in
                await handler.respond(to: $0)
            }
        } catch {
            context.console.err("Error: \(error)\n")
            return StorySite.ExitCode.failure
        }
        if let note = bound.note { context.console.out(note + "\n") }
        announce(folder, host: host, port: bound.port)
        await ServeSignals.waitForStop()
        bound.server.stop()
        return StorySite.ExitCode.success
    }

    /// `Serving Output/ at http://127.0.0.1:8080/ (Ctrl-C to stop)`: printed even under
    /// `--quiet`, since the URL is what the command gives.
    private func announce(_ folder: String, host: String, port: Int) {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let shownFolder = folder.hasSuffix("/") ? folder : folder + "/"
        context.console.out("Serving \(shownFolder) at http://\(shownHost):\(port)/ (Ctrl-C to stop)\n")
    }
}
