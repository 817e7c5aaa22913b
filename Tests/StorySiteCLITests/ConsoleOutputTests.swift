import Foundation
import Testing
import TestSupport
@testable import StorySiteCLI

/// A console that records what the CLI writes, posing as a terminal or not.
final class RecordingConsole: Console, @unchecked Sendable {
    let isTerminal: Bool
    private let lock = NSLock()
    private var outText = ""
    private var errText = ""

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    func out(_ text: String) { lock.withLock { outText += text } }
    func err(_ text: String) { lock.withLock { errText += text } }
    var stdout: String { lock.withLock { outText } }
    var stderr: String { lock.withLock { errText } }
}

extension StorySiteCLITests {
    @Suite("Telling the user")
    struct ConsoleOutputTests {
        static func site() throws -> TemporaryFolder {
            let workspace = try TemporaryFolder()
            try workspace.write("Templates/pages/default.mustache", "<h1>{{story.name}}</h1>{{#body}}{{>*component}}{{/body}}")
            try workspace.write("Content/home.json", #"{"name": "Home", "uuid": "h", "full_slug": "home", "content": {"component": "page", "_uid": "r", "body": [{"component": "slider", "_uid": "s"}]}}"#)
            return workspace
        }

        @Test("on a terminal, progress is a bar redrawn in place and warnings are coloured")
        func terminal() async throws {
            let workspace = try Self.site()
            let console = RecordingConsole(isTerminal: true)
            let status = await StorySite.run(arguments: ["build"], environment: [:], workingDirectory: workspace.url, console: console)
            #expect(status == 0)
            #expect(console.stderr.contains("\r\u{1B}[2KRendering "))
            #expect(console.stderr.contains("\u{1B}[1;33mwarning:\u{1B}[0m no template for component 'slider'"))
            #expect(console.stdout.hasPrefix("Built 1 page from 1 story in "))
        }

        @Test("NO_COLOR turns colours off, even on a terminal")
        func noColor() async throws {
            let workspace = try Self.site()
            let console = RecordingConsole(isTerminal: true)
            _ = await StorySite.run(arguments: ["build"], environment: ["NO_COLOR": "1"], workingDirectory: workspace.url, console: console)
            #expect(console.stderr.contains("Templates/components/slider.mustache: warning: no template for component 'slider'"))
            #expect(!console.stderr.contains("\u{1B}[1;33m"))
        }

        @Test("without a terminal, each phase is one plain line with its time")
        func plainLines() async throws {
            let workspace = try Self.site()
            let console = RecordingConsole(isTerminal: false)
            _ = await StorySite.run(arguments: ["build"], environment: [:], workingDirectory: workspace.url, console: console)
            let lines = console.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(lines)")
            #expect(lines[0].range(of: #"^Crawled 1 story from Content/ \(\d+ ms\)$"#, options: .regularExpression) != nil, "\(lines)")
            #expect(lines[1].range(of: #"^Rendered 1 page \(\d+ ms\)$"#, options: .regularExpression) != nil, "\(lines)")
            #expect(!console.stderr.contains("\u{1B}"))
        }

        @Test("--quiet with warnings prints nothing, and with errors prints only the errors")
        func quietShowsOnlyErrors() async throws {
            let workspace = try Self.site()
            let warnings = RecordingConsole(isTerminal: false)
            #expect(await StorySite.run(arguments: ["build", "--quiet"], environment: [:], workingDirectory: workspace.url, console: warnings) == 0)
            #expect(warnings.stderr.isEmpty && warnings.stdout.isEmpty)
            let errors = RecordingConsole(isTerminal: false)
            #expect(await StorySite.run(arguments: ["build", "--quiet", "--strict", "--output", "strict"], environment: [:], workingDirectory: workspace.url, console: errors) == 1)
            #expect(errors.stderr == "Templates/components/slider.mustache: error: no template for component 'slider', used by home; its blocks render as nothing\n")
        }
    }
}
