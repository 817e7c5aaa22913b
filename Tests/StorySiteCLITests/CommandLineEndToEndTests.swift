import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// The command line's own behaviour (suggestions, versions, help), driven through the
    /// built executable.
    @Suite("The command line, end to end")
    struct CommandLineEndToEndTests {
        @Test("a mistyped flag is a usage error that suggests the flag meant", arguments: [
            (["build", "--stirct"], "Unknown option '--stirct' (did you mean '--strict'?)"),
            (["build", "--sorce", "Content"], "Unknown option '--sorce' (did you mean '--source'?)"),
            (["check", "--formt=json"], "Unknown option '--formt' (did you mean '--format'?)"),
            (["pull", "-force"], "Unknown option '-force' (did you mean '--force'?)"),
            (["serve", "--hlep"], "Unknown option '--hlep' (did you mean '--help'?)"),
            (["build", "--colour"], "Unknown option '--colour'"),
            (["--stirct"], "Unknown option '--stirct'; options come after the command"),
            (["--verison"], "Unknown option '--verison' (did you mean '--version'?); options come after the command"),
        ])
        func flagSuggestions(arguments: [String], message: String) async throws {
            let workspace = try TemporaryFolder()
            let result = try await Executable.run(arguments, in: workspace.url)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: \(message)\nUsage: storysite "), "\(result.stderr)")
        }

        @Test("the tool's version is --version, -V, -v and the version command, also after any command", arguments: [
            ["--version"], ["-V"], ["-v"], ["version"], ["build", "--version"], ["check", "-V"], ["pull", "--version"],
            ["serve", "--version", "--port", "0"], ["help", "--version"],
        ])
        func toolVersion(arguments: [String]) async throws {
            let workspace = try TemporaryFolder()
            let result = try await Executable.run(arguments, in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.range(of: #"^storysite \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(result.stdout)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        @Test(
            "the executable's allocator takes the options storysite gives it: huge pages, one arena, larger thread caches",
            .disabled(
                if: ProcessInfo.processInfo.environment["STORYSITE_SYSTEM_MALLOC"] != nil,
                "the executables of this build allocate with the system's malloc (Scripts/sanitize)"))
        func allocatorOptions() async throws {
            let workspace = try TemporaryFolder()
            // jemalloc prints its options, and where they came from, when the process exits.
            let result = try await Executable.run(["--version"], in: workspace.url, environment: ["MALLOC_CONF": "stats_print:true"])
            #expect(result.status == 0, "\(result.stderr)")
            // Where the kernel does not say how it offers huge pages, jemalloc finds them not supported.
            let offered = FileManager.default.isReadableFile(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")
            #expect(result.stderr.contains(offered ? #"opt.thp: "always""# : #"opt.thp: "not supported""#), "\(result.stderr.prefix(2000))")
            #expect(result.stderr.contains(#"opt.metadata_thp: "always""#), "\(result.stderr.prefix(2000))")
            for option in ["opt.narenas: 1", "opt.lg_tcache_nslots_mul: 2", "opt.tcache_nslots_small_max: 1024", "opt.tcache_gc_incr_bytes: 1048576"] {
                #expect(result.stderr.contains(option), "\(option) in \(result.stderr.prefix(2000))")
            }
        }

        @Test("--content-version, or --version with a value, picks the stories to read from the API")
        func contentVersion() async throws {
            let (workspace, api, url) = try StoryblokEndToEndTests.demoWithAPI()
            defer { api.stop() }
            let preview = ["STORYBLOK_TOKEN": api.previewToken]
            for spelling in [["--content-version", "draft"], ["--version", "draft"], ["--version=draft"]] {
                let before = api.requests.count
                let result = try await Executable.run(
                    ["build", "--api-url", url.absoluteString, "--output", "draft"] + spelling, in: workspace.url, environment: preview)
                #expect(result.status == 0, "\(spelling): \(result.stderr)")
                let requests = api.requests.dropFirst(before).filter { $0.endpoint.hasPrefix("stories") }
                #expect(!requests.isEmpty && requests.allSatisfy { $0.query["version"] == "draft" }, "\(spelling)")
            }
            let wrong = try await Executable.run(["build", "--version", "drfat"], in: workspace.url, environment: preview)
            #expect(wrong.status == 64)
            #expect(wrong.stderr.hasPrefix("Error: The value 'drfat' is invalid for '--content-version <version>': expected one of published, draft\n"))
        }

        @Test("help help and help version work, an unknown command's help is a usage error with a suggestion")
        func helpCommand() async throws {
            let workspace = try TemporaryFolder()
            let overview = try await Executable.run(["help"], in: workspace.url)
            #expect(overview.status == 0)
            for command in ["build", "check", "pull", "serve", "help", "version"] {
                #expect(overview.stdout.contains("\n  \(command) "), "\(command) missing from \(overview.stdout)")
            }
            #expect(overview.stdout.contains("  -V, --version           Show the version of storysite.\n"))
            let help = try await Executable.run(["help", "help"], in: workspace.url)
            #expect(help.status == 0)
            #expect(help.stdout.contains("USAGE: storysite help [<command>]\n"), "\(help.stdout)")
            let version = try await Executable.run(["help", "version"], in: workspace.url)
            #expect(version.status == 0 && version.stdout.contains("USAGE: storysite version\n"), "\(version.stdout)")
            let unknown = try await Executable.run(["help", "biuld"], in: workspace.url)
            #expect(unknown.status == 64)
            #expect(unknown.stderr.hasPrefix("Error: Unknown command 'biuld' (did you mean 'build'?)\n"), "\(unknown.stderr)")
        }

        @Test("each command's help lists the options it uses and no others")
        func helpListsUsedOptions() async throws {
            let workspace = try TemporaryFolder()
            func options(_ command: String) async throws -> Set<String> {
                let help = try await Executable.run([command, "--help"], in: workspace.url)
                #expect(help.status == 0)
                let listed = help.stdout.split(separator: "\n").filter { $0.hasPrefix("  --") }.map { $0.split(separator: " ")[0] }
                return Set(listed.map(String.init))
            }
            let source: Set = ["--source", "--entry", "--token", "--region", "--api-url", "--content-version", "--language", "--fallback"]
            let building = source.union(["--base-url", "--templates", "--output", "--strict", "--jobs", "--quiet", "--editable"])
            #expect(try await options("build") == building.union(["--timings"]))
            #expect(try await options("check") == building.subtracting(["--output"]).union(["--orphans", "--external", "--format"]))
            #expect(try await options("serve") == building.union(["--host", "--port", "--poll", "--timings"]))
            #expect(try await options("pull") == source.subtracting(["--source", "--fallback"]).union(["--to", "--force", "--quiet"]))
            #expect(try await options("version").isEmpty)
        }
    }
}
