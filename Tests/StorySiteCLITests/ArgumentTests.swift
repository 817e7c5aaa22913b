import Testing
@testable import StorySiteCLI

@Suite("StorySiteCLI")
struct StorySiteCLITests {}

extension StorySiteCLITests {
    @Suite("Command-line arguments")
    struct ArgumentTests {
        let spec = CommandSpec(
            name: "build", abstract: "Build.",
            options: [
                .value("source", "dir", help: "Source."),
                .value("entry", "slug", help: "Entry.", repeatable: true),
                .value("jobs", "n", help: "Jobs."),
                .flag("strict", help: "Strict."),
            ],
            positionals: [.init(name: "folder", help: "A folder.")])

        @Test("values come as separate words or after '=', and repeatable options collect every value")
        func values() throws {
            let parsed = try ParsedArguments(
                ["--source", "Stories", "--entry=home", "--entry", "global", "--strict", "site"], spec: spec)
            #expect(parsed.string("source") == "Stories")
            #expect(parsed.strings("entry") == ["home", "global"])
            #expect(parsed.flag("strict"))
            #expect(parsed.positional(0) == "site")
            #expect(!parsed.wantsHelp)
        }

        @Test("bad command lines fail with the message Swift's argument parser would give", arguments: [
            (["--sauce", "x"], "Unknown option '--sauce' (did you mean '--source'?)"),
            (["--stirct"], "Unknown option '--stirct' (did you mean '--strict'?)"),
            (["--colour"], "Unknown option '--colour'"),
            (["--source"], "Missing value for '--source <dir>'"),
            (["--source", "--strict"], "Missing value for '--source <dir>'"),
            (["--jobs", "zero"], "The value 'zero' is invalid for '--jobs <n>': expected a whole number from 1 to 256"),
            (["--jobs", "0"], "The value '0' is invalid for '--jobs <n>': expected a whole number from 1 to 256"),
            (["--strict=yes"], "The flag '--strict' does not take a value"),
            (["--source", "a", "--source", "b"], "The option '--source' was given more than once"),
            (["a", "b"], "Unexpected argument 'b'"),
            (["-x"], "Unknown option '-x'"),
        ])
        func usageErrors(arguments: [String], message: String) {
            #expect {
                let parsed = try ParsedArguments(arguments, spec: spec)
                _ = try parsed.integer("jobs", in: 1...256)
            } throws: { error in
                (error as? UsageError)?.message == message
            }
        }

        @Test("a usage error report has the Error line, the usage line and a hint")
        func usageReport() {
            let report = UsageError(message: "Unknown option '--sauce'", spec: spec).report
            #expect(report == """
                Error: Unknown option '--sauce'
                Usage: storysite build [--source <dir>] [--entry <slug>] ... [--jobs <n>] [--strict] [<folder>]
                  See 'storysite help build' for more information.

                """)
        }

        @Test("help lists every option with its help text")
        func help() {
            let help = spec.help
            #expect(help.hasPrefix("OVERVIEW: Build.\n\nUSAGE: storysite build"))
            #expect(help.contains("  --source <dir>          Source.\n"))
            #expect(help.contains("  -h, --help              Show help information.\n"))
        }

        @Test("--help is noticed wherever it stands")
        func helpFlag() throws {
            #expect(try ParsedArguments(["--strict", "--help"], spec: spec).wantsHelp)
        }

        @Test("--version alone asks for the tool's version; followed by a value it is the option it aliases")
        func versionAlias() throws {
            let aliased = CommandSpec(name: "build", abstract: "Build.", options: [
                .value("content-version", "version", help: "Which.", valueAlias: "version"), .flag("strict", help: "Strict."),
            ])
            for arguments in [["--version"], ["--version", "--strict"], ["-V"], ["--strict", "--version"]] {
                let parsed = try ParsedArguments(arguments, spec: aliased)
                #expect(parsed.wantsVersion && parsed.string("content-version") == nil, "\(arguments)")
            }
            for arguments in [["--version", "draft"], ["--version=draft"], ["--content-version", "draft"]] {
                let parsed = try ParsedArguments(arguments, spec: aliased)
                #expect(!parsed.wantsVersion && parsed.string("content-version") == "draft", "\(arguments)")
            }
            #expect(try ParsedArguments(["--version", "x"], spec: spec).wantsVersion, "without the alias, --version is the tool's")
        }

        @Test("after '--' everything is positional")
        func doubleDash() throws {
            #expect(try ParsedArguments(["--", "--odd-folder"], spec: spec).positional(0) == "--odd-folder")
        }
    }
}
