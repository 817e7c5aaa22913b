import Foundation
import HTTPServer
import Preview
import SiteBuild
import SiteOutput

/// `storysite serve`: builds the site, serves the output folder on 127.0.0.1, and rebuilds on
/// every save of a story, a template or `storysite.json`, reloading open pages (or showing the
/// build's errors over them). `storysite serve DIR` serves a folder as it is.
struct ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Build the site, serve it, and rebuild and reload the browser on every save.",
        discussion: """
            Builds like 'storysite build', serves the output folder and prints its URL. Saving a story,
            a template or storysite.json rebuilds the site and reloads every open page; a failed rebuild
            keeps the last good site and shows its errors over the page until a save fixes them.
            Changing the output, source or templates folder in storysite.json needs a restart.
            With a folder argument, serves that folder as it is: no build, no watching.
            Stop with Ctrl-C.
            """,
        options: BuildOptions.specOptions + [
            .value("host", "address", help: "The address to listen on, also answered as a Host name. (default: 127.0.0.1)"),
            .value("port", "port", help: "The port to listen on; 0 picks a free one. (default: 8080)"),
        ],
        positionals: [.init(name: "dir", help: "A folder to serve as it is, built elsewhere.")])

    let arguments: ParsedArguments
    let context: CommandContext

    func run() async throws -> Int32 {
        let host = arguments.string("host") ?? "127.0.0.1"
        let port = try arguments.integer("port", in: 0...65535) ?? 8080
        if let folder = arguments.positional(0) {
            return try await serveFolder(folder, host: host, port: port)
        }
        let configuration = try Configuration.load(from: context.workingDirectory)
        let options = try BuildOptions(arguments: arguments, configuration: configuration, environment: context.environment)
        let context = self.context.redacting(options.secrets)
        let output: URL
        do throws(OutputError) {
            output = try options.outputFolder(in: context)
        } catch {
            context.console.err(error.description + "\n")
            return StorySite.ExitCode.failure
        }

        let liveReload = LiveReload()
        let siteModels = options.editorBridge.map { _ in SiteModelStore() }
        let builder = ServeBuilder(
            arguments: arguments, options: options, context: context, output: output, liveReload: liveReload, siteModels: siteModels)
        let coordinator = RebuildCoordinator { await builder.rebuild() }
        await builder.buildFirst()

        // With drafts, the Visual Editor; its `change` and `published` rebuild, fetching the stories again.
        let editor = ServeVisualEditor.make(options: options, host: host, models: siteModels) { _ in await coordinator.request() }
        let server = HTTPServer(host: host, port: port) { [handler = StaticSiteHandler(root: output, liveReload: liveReload), editor] request in
            guard let editor else { return await handler.respond(to: request) }
            return await editor.respond(to: request) { await handler.respond(to: $0) }
        }
        let boundPort = try server.start()
        announce(options.output, host: host, port: boundPort)

        let watched = [options.templates, options.staticFolder] + (options.api == nil ? [options.source] : [])
        let watcher = FolderWatcher(
            folders: watched.map { context.url($0) },
            files: [context.workingDirectory.appendingPathComponent(Configuration.fileName)])
        // Each burst of saves asks the coordinator at once; one asked for during a rebuild
        // makes exactly one more. Ending the stream waits for the rebuild in progress.
        let rebuilding = Task {
            await withDiscardingTaskGroup { group in
                for await _ in watcher.changes {
                    group.addTask { await coordinator.request() }
                }
            }
        }
        await ServeSignals.waitForStop()
        watcher.stop()
        await rebuilding.value
        liveReload.disconnectAll()
        server.stop()
        return StorySite.ExitCode.success
    }

    /// `serve DIR`: the folder as it is, without building or watching.
    private func serveFolder(_ folder: String, host: String, port: Int) async throws -> Int32 {
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
        let server = HTTPServer(host: host, port: port) { [handler = StaticSiteHandler(root: root)] in
            await handler.respond(to: $0)
        }
        let boundPort = try server.start()
        announce(folder, host: host, port: boundPort)
        await ServeSignals.waitForStop()
        server.stop()
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
