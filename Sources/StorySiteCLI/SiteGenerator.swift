import Foundation
import Mustache
import SiteOutput
import StoryCrawl
import StoryModel
import StoryRender
import StorySource

/// Runs the pipeline short of writing: load the templates and the source, crawl from the entries,
/// place each story's page, render every page, and add the 404 page, assets, sitemap and robots.
/// Every problem found is collected, so one run reports all of them.
struct SiteGenerator {
    /// What a generation produced: the files to write (empty when there were errors) and the
    /// problems found.
    struct Result {
        var files: [OutputFile] = []
        var diagnostics: [Diagnostic] = []
        var storyCount = 0
        var pageCount = 0
        var graph: LinkGraph?
    }

    let options: BuildOptions
    let context: CommandContext
    let progress: Progress

    func generate() async -> Result {
        var result = Result()
        let templates = loadTemplates(into: &result)
        let source = loadSource(into: &result)
        guard let templates, let source, result.diagnostics.isEmpty else { return result }

        progress.begin("Crawling")
        let graph: LinkGraph
        do {
            graph = try await Crawler(source: source, entries: try await entries(in: source), baseURL: options.baseURL).crawl()
        } catch let error as CrawlError {
            result.diagnostics += error.description.split(separator: "\n").map {
                .error(options.source, String($0) + "; give the entry with --entry or \"entry\" in storysite.json")
            }
            return result
        } catch {
            result.diagnostics.append(.error(options.source, "\(error)"))
            return result
        }
        result.graph = graph
        result.storyCount = graph.stories.count
        progress.finish("Crawled \(graph.stories.count) stories from \(options.entries.joined(separator: ", "))")
        result.diagnostics += brokenLinkDiagnostics(graph)

        let pages = PagePlan(graph: graph, options: options)
        result.diagnostics += pages.problems
        guard !pages.problems.contains(where: { $0.severity == .error }) else { return result }

        let renderer = PageRenderer(
            library: templates,
            resolver: GraphLinkResolver(graph: graph, pageURL: { pages.location(of: $0)?.url }),
            site: siteValue(),
            global: pages.globalStory,
            baseURL: options.baseURL,
            markdownUnsafe: options.markdownUnsafe)
        let rendered = await renderAll(pages.stories, graph: graph, renderer: renderer, into: &result)
        guard !result.diagnostics.contains(where: { $0.severity == .error }) else { return result }

        result.files = rendered
        result.pageCount = rendered.count
        result.files.append(notFoundPage(renderer: renderer, templates: templates, into: &result))
        result.files += assets(into: &result)
        if let baseURL = options.baseURL {
            let entries = pages.stories.map { story in
                Sitemap.Entry(url: pages.location(of: story)?.url ?? "", lastModified: story.string("published_at"))
            }
            result.files.append(OutputFile(path: "sitemap.xml", text: Sitemap.xml(entries: entries, baseURL: baseURL)))
            result.files.append(OutputFile(path: "robots.txt", text: Sitemap.robots(baseURL: baseURL)))
        }
        return result
    }

    // MARK: Loading

    private func loadTemplates(into result: inout Result) -> TemplateLibrary? {
        let folder = context.url(options.templates)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            result.diagnostics.append(.error(options.templates, "the templates folder does not exist; give it with --templates"))
            return nil
        }
        do {
            return try TemplateLibrary(folder: URL(fileURLWithPath: options.templates, relativeTo: context.workingDirectory))
        } catch let errors as TemplateErrors {
            result.diagnostics += errors.errors.map { .error("\($0.path):\($0.line):\($0.column)", $0.message) }
        } catch {
            result.diagnostics.append(.error(options.templates, "\(error)"))
        }
        return nil
    }

    private func loadSource(into result: inout Result) -> (any StorySource)? {
        let folder = context.url(options.source)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            result.diagnostics.append(.error(options.source, "the content folder does not exist; give it with --source"))
            return nil
        }
        do {
            return try LocalFolderSource(folder: folder, displayPath: options.source)
        } catch {
            result.diagnostics += error.problems.map { problem in
                let location = [problem.file, problem.line.map(String.init), problem.column.map(String.init)]
                    .compactMap { $0 }.joined(separator: ":")
                return .error(location, problem.message)
            }
            return nil
        }
    }

    /// The entries to crawl from: the configured ones, plus the global story when the source has it.
    private func entries(in source: any StorySource) async throws -> [String] {
        let global = SlugLookup.key(options.global)
        guard !options.entries.contains(where: { SlugLookup.key($0) == global }) else { return options.entries }
        let found = try await source.stories(for: [.slug(options.global)])
        return found.isEmpty ? options.entries : options.entries + [options.global]
    }

    // MARK: Rendering

    /// Renders every page with at most `--jobs` at once; the files come back in crawl order,
    /// whatever the concurrency.
    private func renderAll(
        _ stories: [Story], graph: LinkGraph, renderer: PageRenderer, into result: inout Result
    ) async -> [OutputFile] {
        progress.begin("Rendering", total: stories.count)
        let jobs = max(1, options.jobs)
        let outcomes = await withTaskGroup(of: (Int, Result<RenderedPage, any Error>).self) { group in
            var outcomes = [Result<RenderedPage, any Error>?](repeating: nil, count: stories.count)
            var next = 0
            func submit() {
                let index = next
                let story = stories[index]
                next += 1
                group.addTask {
                    let backlinks = graph.backlinks(to: story.uuid).compactMap { graph.story(uuid: $0) }
                    return (index, Result { try renderer.render(story, backlinks: backlinks) })
                }
            }
            while next < min(jobs, stories.count) { submit() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                progress.advance()
                if next < stories.count { submit() }
            }
            return outcomes
        }

        var files: [OutputFile] = []
        var missingComponents: [String: [String]] = [:]
        for (story, outcome) in zip(stories, outcomes) {
            switch outcome {
            case .success(let page)?:
                guard let location = pageLocation(story, graph: graph) else { continue }
                files.append(OutputFile(path: location.filePath, text: page.html))
                for component in page.missingComponents { missingComponents[component, default: []].append(story.fullSlug) }
                result.diagnostics += page.warnings.map {
                    renderWarning($0)
                }
            case .failure(let error)?:
                result.diagnostics.append(.error(story.fullSlug, "could not render the page: \(error)"))
            case nil:
                break
            }
        }
        result.diagnostics += missingComponents.keys.sorted().map { component in
            let users = missingComponents[component]!
            let shown = users.prefix(5).joined(separator: ", ") + (users.count > 5 ? " and \(users.count - 5) more" : "")
            let diagnostic = Diagnostic(
                severity: options.strict ? .error : .warning,
                location: "\(options.templates)/components/\(component).mustache",
                message: "no template for component '\(component)', used by \(shown); the blocks render as nothing")
            return diagnostic
        }
        progress.finish("Rendered \(files.count) pages")
        return files
    }
}
