import Foundation

/// The `storysite` command line: dispatches to a command and turns every outcome into an exit
/// code (0 success, 1 failure, 64 usage error). `main.swift` only calls ``run(arguments:environment:workingDirectory:console:)``.
public enum StorySite {
    /// The version printed by `--version`; also part of the build cache key.
    public static let version = "0.1.0"

    /// Exit codes.
    public enum ExitCode {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        public static let usage: Int32 = 64
    }

    static let commands: [CommandSpec] = [BuildCommand.spec, PullCommand.spec, ServeCommand.spec]

    /// Runs the command line `arguments` (without the program name).
    public static func run(
        arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
        console: any Console = StandardConsole()
    ) async -> Int32 {
        let context = CommandContext(environment: environment, workingDirectory: workingDirectory, console: console)
        do {
            return try await dispatch(arguments, context: context)
        } catch let error as UsageError {
            console.err(error.report)
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
        case "--version":
            context.console.out("storysite \(version)\n")
            return ExitCode.success
        case "help":
            guard let name = rest.first else {
                context.console.out(overview)
                return ExitCode.success
            }
            guard let spec = commands.first(where: { $0.name == name }) else {
                throw UsageError(message: "Unknown command '\(name)'", spec: nil)
            }
            context.console.out(spec.help)
            return ExitCode.success
        case BuildCommand.spec.name:
            guard let parsed = try parse(rest, BuildCommand.spec, context: context) else { return ExitCode.success }
            return try await BuildCommand(arguments: parsed, context: context).run()
        case PullCommand.spec.name:
            guard let parsed = try parse(rest, PullCommand.spec, context: context) else { return ExitCode.success }
            return try await PullCommand(arguments: parsed, context: context).run()
        case ServeCommand.spec.name:
            guard let parsed = try parse(rest, ServeCommand.spec, context: context) else { return ExitCode.success }
            return try await ServeCommand(arguments: parsed, context: context).run()
        default:
            let hint = commands.map(\.name).first { EditDistance.between($0, first) <= 2 }
            throw UsageError(message: "Unknown command '\(first)'" + (hint.map { " (did you mean '\($0)'?)" } ?? ""), spec: nil)
        }
    }

    /// The command's arguments, or nil when help was asked for (and printed).
    private static func parse(_ arguments: [String], _ spec: CommandSpec, context: CommandContext) throws(UsageError) -> ParsedArguments? {
        let parsed = try ParsedArguments(arguments, spec: spec)
        guard !parsed.wantsHelp else {
            context.console.out(spec.help)
            return nil
        }
        return parsed
    }

    static var overview: String {
        var text = """
            OVERVIEW: A static site generator for story trees (Storyblok and similar headless CMSs).

            It starts at the entry story ("home"), follows every story link breadth-first, renders each
            story's blocks through Mustache templates and writes interlinked pages.

            USAGE: storysite <command> [options]

            OPTIONS:
            \(CommandSpec.helpRow("--version", "Show the version."))\(CommandSpec.helpRow("-h, --help", "Show help information."))
            COMMANDS:

            """
        for command in commands { text += CommandSpec.helpRow(command.name, command.abstract) }
        text += "\n  See 'storysite help <command>' for detailed help.\n"
        return text
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

    /// `path` resolved against the working folder.
    func url(_ path: String) -> URL {
        URL(fileURLWithPath: path, isDirectory: true, relativeTo: workingDirectory).standardizedFileURL
    }
}
