/// `storysite help [<command>]`: the overview, or one command's help (`help help` included).
struct HelpCommand: Command {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show the overview, or a command's options.",
        discussion: "'storysite <command> --help' shows the same.",
        options: [],
        positionals: [.init(name: "command", help: "The command to explain.")])

    let arguments: ParsedArguments
    let context: CommandContext

    func run() async throws -> Int32 {
        guard let name = arguments.positional(0) else {
            context.console.out(StorySite.overview)
            return StorySite.ExitCode.success
        }
        guard let command = StorySite.commands.first(where: { $0.spec.name == name }) else {
            throw UsageError(message: StorySite.unknownCommand(name), spec: Self.spec)
        }
        context.console.out(command.spec.help)
        return StorySite.ExitCode.success
    }
}
