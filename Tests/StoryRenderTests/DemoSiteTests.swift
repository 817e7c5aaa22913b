import Foundation
import Mustache
import StoryCrawl
import StoryModel
import StoryRender
import StorySource
import TestSupport
import Testing

@Suite("The demo space renders with the default theme")
struct DemoSiteTests {
    static let content = SharedFixtures.repositoryRoot.appendingPathComponent("Content", isDirectory: true)
    static let templates = SharedFixtures.repositoryRoot.appendingPathComponent("Templates", isDirectory: true)
    static let available = FileManager.default.fileExists(atPath: content.path)
        && FileManager.default.fileExists(atPath: templates.path)

    /// Pretty URLs: `home` is the site root, a start page `blog/` is `blog/`, `blog/post` is
    /// `blog/post/`; the global story has no page.
    static func pageURL(_ story: Story) -> String? {
        if story.fullSlug == "global" { return nil }
        if story.fullSlug == "home" { return "" }
        return story.isStartPage ? story.fullSlug : story.fullSlug + "/"
    }

    @Test("every crawled story renders without missing components or warnings, to balanced HTML",
          .enabled(if: available, "the demo space (Content/) or the theme (Templates/) is absent"))
    func everyPage() async throws {
        let source = try LocalFolderSource(folder: Self.content)
        let graph = try await Crawler(source: source, entries: ["home", "global"]).crawl()
        let resolver = GraphLinkResolver(graph: graph, pageURL: Self.pageURL)
        let renderer = PageRenderer(
            library: try TemplateLibrary(folder: Self.templates), resolver: resolver,
            site: json(#"{"title": "Kestrel Studio", "description": "Demo"}"#), global: graph.story(for: .slug("global")))

        var rendered = 0
        for node in graph.stories where Self.pageURL(node.story) != nil {
            let backlinks = graph.backlinks(to: node.story.uuid).compactMap { graph.story(uuid: $0) }.map { LinkedPage(story: $0, url: Self.pageURL($0)) }
            let page = try renderer.render(node.story, backlinks: backlinks)
            rendered += 1
            #expect(page.missingComponents.isEmpty, "\(node.story.fullSlug): \(page.missingComponents)")
            #expect(page.warnings.isEmpty, "\(node.story.fullSlug): \(page.warnings)")
            #expect(HTMLBalance.problem(in: page.html) == nil, "\(node.story.fullSlug): \(HTMLBalance.problem(in: page.html) ?? "")")
            #expect(!page.html.contains("javascript:"))
        }
        #expect(rendered > 20)

        let notFound = try #require(try renderer.render404())
        #expect(notFound.html.contains(#"<a class="button" href="/">"#))
        #expect(notFound.warnings.isEmpty && notFound.missingComponents.isEmpty)
    }
}
