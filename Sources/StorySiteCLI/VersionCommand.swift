/// `storysite version`: the tool's version, as `storysite --version`, `-V` and `-v` print it.
struct VersionCommand: Command {
    static let spec = CommandSpec(
        name: "version",
        abstract: "Show the version of storysite (also --version, -V and -v).",
        options: [])

    let arguments: ParsedArguments
    let context: CommandContext

    func run() async throws -> Int32 {
        Self.print(to: context.console)
        return StorySite.ExitCode.success
    }

    /// `storysite 0.9.0`.
    static func print(to console: any Console) {
        console.out("storysite \(StorySite.version)\n")
    }
}
