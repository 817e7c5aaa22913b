import Foundation
import SiteBuild

/// The `storysite` command line: dispatches to a command and turns every outcome into an exit
/// code (0 success, 1 failure, 64 usage error). `main.swift` only calls ``run(arguments:environment:workingDirectory:console:)``.
public enum StorySite {
    /// The version printed by `--version`; also part of the build cache key.
    public static let version = SiteBuildVersion.current

    /// Exit codes.
    public enum ExitCode {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        public static let usage: Int32 = 64
    }

    static let commands = [
        CommandEntry(BuildCommand.self), CommandEntry(CheckCommand.self), CommandEntry(PullCommand.self), CommandEntry(ServeCommand.self),
        CommandEntry(InitCommand.self), CommandEntry(HelpCommand.self), CommandEntry(VersionCommand.self),
    ]

    /// Runs the command line `arguments` (without the program name).
    public static func run(
        arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
        console: any Console = StandardConsole()
    ) async -> Int32 {
        // The environment's token is redacted from everything, usage errors included (a token
        // pasted as an argument by mistake is echoed by "Unexpected argument").
        let context = CommandContext(environment: environment, workingDirectory: workingDirectory, console: console)
            .redacting(environment["STORYBLOK_TOKEN"].map { [$0] } ?? [])
        let console = context.console
        do {
            return try await dispatch(arguments, context: context)
        } catch let error as UsageError {
            console.err(error.report)
            return ExitCode.usage
        } catch let error as ConfigurationError {
            console.err("\(error)\n")
            return ExitCode.usage
        } catch {
            console.err("Error: \(error)\n")
            return ExitCode.failure
        }
    }

    private static func dispatch(_ arguments: [String], context: CommandContext) async throws -> Int32 {
        guard let first = arguments.first else {
            context.console.out(overview)
            return ExitCode.success
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h":
            context.console.out(overview)
            return ExitCode.success
        case "--version", "-V", "-v":
            VersionCommand.print(to: context.console)
            return ExitCode.success
        default:
            guard let command = commands.first(where: { $0.spec.name == first }) else {
                guard first.hasPrefix("-") else { throw UsageError(message: unknownCommand(first), spec: nil) }
                let hint = EditDistance.didYouMean(first.drop { $0 == "-" }.description, among: ["help", "version"], prefix: "--")
                throw UsageError(message: "Unknown option '\(first)'\(hint); options come after the command", spec: nil)
            }
            let parsed = try ParsedArguments(rest, spec: command.spec)
            if parsed.wantsHelp {
                context.console.out(command.spec.help)
                return ExitCode.success
            }
            if parsed.wantsVersion {
                VersionCommand.print(to: context.console)
                return ExitCode.success
            }
            return try await command.run(parsed, context)
        }
    }

    /// `Unknown command 'biuld' (did you mean 'build'?)`.
    static func unknownCommand(_ name: String) -> String {
        "Unknown command '\(name)'" + EditDistance.didYouMean(name, among: commands.map(\.spec.name))
    }

    static var overview: String {
        var text = """
            OVERVIEW: A static site generator for story trees (Storyblok and similar headless CMSs).

            It starts at the entry story ("home"), follows every story link breadth-first, renders each
            story's blocks through Mustache templates and writes interlinked pages.

            USAGE: storysite <command> [options]

            OPTIONS:
            \(CommandSpec.standardRows)
            COMMANDS:

            """
        for command in commands { text += CommandSpec.helpRow(command.spec.name, command.spec.abstract) }
        text += "\n  See 'storysite help <command>' for detailed help.\n"
        return text
    }
}

/// A `storysite` subcommand: its command line, and how it runs once that is parsed. Sendable, so
/// that the dispatch table may hold its type (a Sendable type's metatype is Sendable too).
protocol Command: Sendable {
    static var spec: CommandSpec { get }
    init(arguments: ParsedArguments, context: CommandContext)
    func run() async throws -> Int32
}

/// A command in the dispatch table: its spec, and how to run it on parsed arguments.
struct CommandEntry: Sendable {
    let spec: CommandSpec
    let run: @Sendable (ParsedArguments, CommandContext) async throws -> Int32

    init<C: Command>(_ command: C.Type) {
        spec = C.spec
        run = { arguments, context in try await C(arguments: arguments, context: context).run() }
    }
}

/// What every command gets from its caller: the environment, the working folder and the console.
struct CommandContext: Sendable {
    var environment: [String: String]
    var workingDirectory: URL
    var console: any Console

    /// Whether coloured output is allowed: a terminal, and `NO_COLOR` unset or empty.
    var colorEnabled: Bool {
        console.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Prints `log` on standard error, all together; only the errors under `--quiet`.
    func printProblems(_ log: DiagnosticLog, quiet: Bool) {
        console.err(log.report(colored: colorEnabled, errorsOnly: quiet))
    }

    /// `path` resolved against the working folder.
    func url(_ path: String) -> URL {
        URL(fileURLWithPath: path, isDirectory: true, relativeTo: workingDirectory).standardizedFileURL
    }

    /// `path` as seen from the working folder (`./site/` and `/work/site` are `site` when
    /// working in `/work`); absolute when it is outside the working folder.
    func pathInWorkingFolder(_ path: String) -> String {
        let absolute = url(path).path
        let folder = workingDirectory.standardizedFileURL.path
        if absolute == folder { return "." }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}
