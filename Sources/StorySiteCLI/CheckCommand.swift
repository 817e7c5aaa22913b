import Foundation
import LinkCheck
import SiteBuild
import StorySource

/// `storysite check`: broken links at the content level (story references) and in the HTML,
/// either of the site a build would write (nothing is written) or of any folder of HTML.
struct CheckCommand: Command {
    static let formats = ["text", "json", "github", "junit"]

    static let spec = CommandSpec(
        name: "check",
        abstract: "Check the site for broken links, or any folder of HTML.",
        discussion: """
            Without <folder>, crawls and renders like a build, without writing anything, then reports
            story references that resolve to nothing, out-of-date saved slugs, and every internal
            link, image, srcset candidate and #fragment in the rendered pages that leads nowhere.
            With <folder>, checks the HTML files in it as a static host would serve them.
            Exits 0 when nothing is broken and 1 when something is.
            """,
        options: BuildOptions.specOptions.filter { $0.name != "output" } + [
            .flag("orphans", help: "Also report stories that no entry story reaches."),
            .flag("external", help: "Also check http(s) links over the network (HEAD, then GET)."),
            .value("format", "format", help: "text, json, github (annotations) or junit. (default: text)"),
        ],
        positionals: [.init(name: "folder", help: "A folder of HTML to check instead of the site.")])

    let arguments: ParsedArguments
    let context: CommandContext

    func run() async throws -> Int32 {
        let format = try arguments.choice("format", Self.formats) ?? "text"
        let configuration = try Configuration.load(from: context.workingDirectory)
        let options = try BuildOptions(arguments: arguments, configuration: configuration, environment: context.environment)
        let context = self.context.redacting(options.secrets)
        let folderCheck = HTMLFolderCheck(options: .init(
            checkExternal: arguments.flag("external"), siteURL: options.baseURL.flatMap(URL.init(string:)),
            parallelism: options.jobs))

        let report: CheckReport
        // Annotations name files from the working folder, where a workflow runs: the checked
        // folder's pages, or the pages where a build writes them.
        let filePrefix = Self.folderPrefix(context.pathInWorkingFolder(arguments.positional(0) ?? options.output))
        if let folder = arguments.positional(0) {
            do {
                report = try await folderCheck.check(folder: context.url(folder))
            } catch {
                context.console.err("\(folder): error: \(error)\n")
                return StorySite.ExitCode.failure
            }
        } else {
            let progress = Progress(console: context.console, quiet: options.quiet || format != "text")
            let site = await SiteGenerator(settings: options.settings, workingDirectory: context.workingDirectory, progress: progress)
                .generate(reportsBrokenStoryLinks: false)
            var log = DiagnosticLog()
            log.add(contentsOf: site.diagnostics)
            context.printProblems(log, quiet: options.quiet)
            guard !site.graphs.isEmpty, !log.hasErrors else { return StorySite.ExitCode.failure }
            let pages = Dictionary(site.files.filter { $0.path.hasSuffix(".html") }.map { ($0.path, $0.contents) }, uniquingKeysWith: { first, _ in first })
            let otherFiles = Set(site.files.map(\.path).filter { !$0.hasSuffix(".html") })
            progress.begin("Checking links", total: pages.count)
            let html = await folderCheck.check(pages: pages, otherFiles: otherFiles)
            progress.finish("Checked \(counted(pages.count, "page"))")
            // Only annotations point into the story files, which are read again for it.
            let storyFiles = format == "github" ? site.folder : nil
            report = Self.contentReport(of: site.graphs, includeOrphans: arguments.flag("orphans"), storyFiles: storyFiles, context: context)
                .merged(with: html)
        }

        switch format {
        case "json": context.console.out(ReportFormatter.json(report))
        case "github": context.console.out(ReportFormatter.github(report, filePrefix: filePrefix))
        case "junit": context.console.out(ReportFormatter.junit(report))
        default: context.console.out(ReportFormatter.text(report))
        }
        return report.hasBrokenLinks ? StorySite.ExitCode.failure : StorySite.ExitCode.success
    }

    /// The content-level check of every language, each finding's story named with its language
    /// (`de/about`) when the site has languages, and placed in its file of `storyFiles`, when
    /// given, at the line of the field.
    private static func contentReport(
        of graphs: [LanguageGraph], includeOrphans: Bool, storyFiles: LocalFolderSource?, context: CommandContext
    ) -> CheckReport {
        graphs.indices.reduce(CheckReport()) { report, index in
            let edition = graphs[index]
            let others = graphs.indices.filter { $0 != index }.map { graphs[$0].graph }
            var checked = ContentLinkCheck.report(for: edition.graph, includeOrphans: includeOrphans, otherLanguages: others)
            // With folder-level translation the story's slug names its language already.
            let language = edition.language.flatMap { $0.strategy == .field ? $0.code : nil }
            // Orphans are outside the graph's stories.
            let orphans = storyFiles == nil ? [:] : Dictionary(edition.graph.orphans.map { ($0.fullSlug, $0) }, uniquingKeysWith: { first, _ in first })
            checked.findings = checked.findings.map { finding in
                var placed = finding
                if let storyFiles, let story = edition.graph.story(for: .slug(finding.source)) ?? orphans[finding.source] {
                    var field = ""
                    if case .field(let path)? = finding.location { field = path }
                    placed.file = storyFiles.position(ofField: field, inStory: story.uuid).map {
                        Finding.FilePosition(path: context.pathInWorkingFolder($0.file), line: $0.line)
                    }
                }
                if let language { placed.source = language + "/" + finding.source }
                return placed
            }
            return report.merged(with: checked)
        }
    }

    /// `site/` for `site`; nothing for the working folder itself.
    private static func folderPrefix(_ path: String) -> String {
        path == "." ? "" : (path.hasSuffix("/") ? path : path + "/")
    }
}
