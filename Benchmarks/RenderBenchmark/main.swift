// Measures what rendering alone costs per page: block preparation (richtext, multilinks, assets,
// Markdown through cmark) and Mustache, for every story of a synthetic space, on one core.
//
//   swift run -c release render-benchmark [--stories 10000] [--runs 3]
//
// The space is built in memory (no files): parsing, the link graph and backlinks are set up
// before the clock starts, as the crawl provides them. Target: under 50 µs per page per core.
// Then a listing page of 10 cards, showing names only and showing content: a listed story's
// content is prepared only when a template reads it.
import Foundation
import Mustache
import StoryCrawl
import StoryModel
import StoryRender
import SyntheticSpace

struct Options {
    var stories = 10_000
    var runs = 3

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError("\(option) needs a value") }
            guard let number = Int(value), number > 0 else { throw UsageError("\(option) needs a positive number, not '\(value)'") }
            switch option {
            case "--stories": stories = number
            case "--runs": runs = number
            default: throw UsageError("unknown option \(option)")
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Pretty URLs: `home` is the site root, `posts/post-7` is `posts/post-7/`.
@Sendable func pageURL(_ story: Story) -> String? {
    story.fullSlug == "home" ? "" : story.fullSlug + "/"
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("render-benchmark: \(error)\nusage: render-benchmark [--stories N] [--runs N]\n".utf8))
    exit(64)
}

let timer = ContinuousClock()
let setupStart = timer.now
var stories: [Story] = []
stories.reserveCapacity(options.stories)
for index in 0..<options.stories {
    let text = SyntheticSpace.storyJSON(SyntheticSpace.page(index, of: options.stories))
    guard case .object(let object)? = try JSONValue(parsing: text)["story"] else { fatalError("no story in synthetic page \(index)") }
    stories.append(try Story(json: object))
}
// The graph the crawl would build: every story, and every edge with its target resolved.
let lookup = LinkGraph(stories: stories.map { LinkGraph.Node(story: $0, depth: 0, firstLinkedFrom: nil) }, edges: [])
var edges: [LinkGraph.Edge] = []
for story in stories {
    for reference in ReferenceExtractor.references(in: story, baseURL: nil) {
        let target = reference.lookupOrder.lazy.compactMap { lookup.story(for: $0) }.first
        edges.append(LinkGraph.Edge(
            source: story.uuid, fieldPath: reference.fieldPath, kind: reference.kind, reference: reference.reference,
            anchor: reference.anchor, cachedURL: reference.cachedURL, target: target?.uuid))
    }
}
let graph = LinkGraph(stories: lookup.stories, edges: edges)
let backlinks = stories.map { story in graph.backlinks(to: story.uuid).compactMap { graph.story(uuid: $0) }.map { LinkedPage(story: $0, url: pageURL($0)) } }
let renderer = PageRenderer(
    library: try TemplateLibrary(templates: SyntheticSpace.theme), resolver: GraphLinkResolver(graph: graph, pageURL: pageURL),
    site: .object(JSONObject(["title": .string("Synthetic")])), baseURL: "https://bench.example/")
print(String(format: "set up %d stories, %d edges, in %.2f s", stories.count, edges.count, seconds(timer.now - setupStart)))

var best = Double.infinity
var bytes = 0
var warnings = 0
var missing = Set<String>()
for run in 1...options.runs {
    bytes = 0
    warnings = 0
    let start = timer.now
    for (index, story) in stories.enumerated() {
        let page = try renderer.render(story, backlinks: backlinks[index])
        bytes += page.html.utf8.count
        warnings += page.warnings.count
        missing.formUnion(page.missingComponents)
    }
    let elapsed = seconds(timer.now - start)
    print(String(format: "run %d: %.3f s", run, elapsed))
    best = min(best, elapsed)
}

print(String(format: "output: %.1f MB of HTML, %d warnings, %d missing components", Double(bytes) / 1e6, warnings, missing.count))
print(String(format: "render: %d pages, %.1f µs per page (one core)", stories.count, best / Double(stories.count) * 1e6))

// A listing page of 10 cards, as a blog's start page renders it: the cards of a theme that shows
// only names and links, against cards that read each story's content (which is prepared, with
// its richtext rendered, only when read).
let cardTemplates = [
    "names": "{{#page.children}}<a href=\"{{href}}\">{{name}}</a>{{/page.children}}",
    "content": "{{#page.children}}<a href=\"{{href}}\">{{name}}</a>{{#content.body}}{{>*component}}{{/content.body}}{{/page.children}}",
]
for (name, template) in cardTemplates.sorted(by: { $0.key > $1.key }) {
    var templates = SyntheticSpace.theme
    templates["pages/page"] = template
    let listing = PageRenderer(
        library: try TemplateLibrary(templates: templates), resolver: GraphLinkResolver(graph: graph, pageURL: pageURL), baseURL: "https://bench.example/")
    let pages = min(1000, stories.count / 10)
    var fastest = Double.infinity
    for _ in 1...options.runs {
        let start = timer.now
        for page in 0..<pages {
            let children = Array(stories[(page * 10)..<(page * 10 + 10)])
            _ = try listing.render(stories[0], listing: PageListing(children: children))
        }
        fastest = min(fastest, seconds(timer.now - start))
    }
    print(String(format: "listing page of 10 cards showing %@: %.1f µs per page (one core)", name, fastest / Double(pages) * 1e6))
}
