import Foundation
import SiteBuild

/// `storysite init [<folder>]`: writes a starter site (the demo space, the default theme,
/// `storysite.json`, `.gitignore` and a GitHub Pages workflow) into a new or empty folder, so
/// that `storysite build` and `storysite serve` work there at once.
struct InitCommand: Command {
    static let spec = CommandSpec(
        name: "init",
        abstract: "Write a starter site into a new or empty folder.",
        discussion: """
            Writes a small content space (Content/), the default theme (Templates/), storysite.json,
            .gitignore and a GitHub Actions workflow that publishes the site on GitHub Pages
            (.github/workflows/pages.yml). Then: cd <folder> && storysite serve.
            """,
        options: [],
        positionals: [.init(name: "folder", help: "The folder to write into, created when missing. (default: the current folder)")])

    let arguments: ParsedArguments
    let context: CommandContext

    func run() async throws -> Int32 {
        let name = arguments.positional(0) ?? "."
        let folder = context.url(name)
        var log = DiagnosticLog()
        if let problem = Self.unusable(folder) {
            log.add(.error(name, problem))
        } else {
            do {
                for file in StarterFile.all {
                    let target = folder.appendingPathComponent(file.path)
                    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try file.contents.write(to: target)
                }
            } catch {
                log.add(.error(name, "could not write the starter site: \(error.localizedDescription)"))
            }
        }
        context.printProblems(log, quiet: false)
        guard !log.hasErrors else { return StorySite.ExitCode.failure }
        let next = name == "." ? "storysite serve" : "cd \(name) && storysite serve"
        context.console.out("Wrote a starter site (\(counted(StarterFile.all.count, "file"))) into \(name == "." ? "this folder" : name + "/"). Next: \(next)\n")
        return StorySite.ExitCode.success
    }

    /// Why `folder` cannot take a starter site (it is a file, or holds something), or nil.
    private static func unusable(_ folder: URL) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else { return "is a file, not a folder; name a new or empty folder" }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        guard !names.isEmpty else { return nil }
        let examples = names.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 3 ? " and \(names.count - 3) more" : "")
        return "the folder is not empty (it holds \(examples)); init writes only into a new or empty folder, so name another"
    }
}
