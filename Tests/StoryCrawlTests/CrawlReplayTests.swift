import Foundation
import StoryModel
import StorySource
import Testing
import TestSupport
@testable import StoryCrawl

extension StoryCrawlTests {
    @Suite("Replaying a crawl over random edits")
    struct CrawlReplayTests {
        typealias Fixture = StoryCrawlTests.LinkGraphUpdateTests

        /// One story of the site as the rounds edit it.
        struct Page {
            var slug: String
            var name: String
            /// Story links: the UUID written and the slug saved with it.
            var links: [(target: String, cached: String)] = []
            /// Markdown links, by slug.
            var markdown: [String] = []
            var isStartPage = false
            var id: Int?
            var text = "t"
        }

        /// A site of a home, two folders with start pages and a folder without, 24 stories
        /// linking at random (some links broken, some saved slugs stale), edited at random.
        struct Site {
            var pages: [String: Page] = [:]
            var random: SplitMix64
            var added = 0

            init(seed: UInt64) {
                random = SplitMix64(state: seed)
                pages["u-home"] = Page(slug: "home", name: "Home")
                pages["u-blog"] = Page(slug: "blog/", name: "Blog")
                pages["u-docs"] = Page(slug: "docs/", name: "Docs")
                for index in 0..<24 { addStory(slug: random.element(of: Self.folders) + "p\(index)") }
                for uuid in pages.keys.sorted() { relink(uuid) }
            }

            static let folders = ["blog/", "docs/", "misc/"]

            @discardableResult
            mutating func addStory(slug: String) -> String {
                added += 1
                let uuid = "u-\(added)"
                pages[uuid] = Page(slug: slug, name: "Story \(added)")
                return uuid
            }

            /// A story's UUID, or now and then one no story has.
            mutating func someTarget() -> String {
                random.chance(10) ? "u-gone-\(random.below(3))" : random.element(of: pages.keys.sorted())
            }

            /// New links for the story `uuid`.
            mutating func relink(_ uuid: String) {
                var links: [(String, String)] = []
                for _ in 0..<random.below(4) {
                    let target = someTarget()
                    links.append((target, random.chance(80) ? (pages[target]?.slug ?? "gone/\(target)") : "stale/\(target)"))
                }
                var markdown: [String] = []
                for _ in 0..<random.below(3) {
                    let target = someTarget()
                    markdown.append(pages[target].map { String($0.slug.dropLast($0.slug.hasSuffix("/") ? 1 : 0)) } ?? "nowhere")
                }
                pages[uuid]!.links = links
                pages[uuid]!.markdown = markdown
            }

            /// One random edit; its name, for messages.
            mutating func edit() -> String {
                let uuids = pages.keys.sorted()
                let movable = uuids.filter { !["u-home", "u-blog", "u-docs"].contains($0) }
                switch random.below(9) {
                case 0:
                    relink(random.element(of: uuids))
                    return "links"
                case 1:
                    pages[random.element(of: uuids)]!.name = "Renamed \(random.below(1000))"
                    return "name"
                case 2:
                    added += 1
                    pages[random.element(of: movable)]!.slug = random.element(of: Self.folders) + "q\(added)"
                    return "slug"
                case 3:
                    let uuid = addStory(slug: random.element(of: Self.folders) + "n\(added + 1)")
                    relink(uuid)
                    if random.chance(50) { pages[random.element(of: uuids)]!.links.append((uuid, pages[uuid]!.slug)) }
                    return "added"
                case 4:
                    pages[random.element(of: movable)] = nil
                    return "removed"
                case 5:
                    // At most one start page of misc/ at a time: two would claim one page.
                    let uuid = random.element(of: movable)
                    let on = !pages[uuid]!.isStartPage && pages[uuid]!.slug.hasPrefix("misc/")
                    for other in movable { pages[other]!.isStartPage = false }
                    pages[uuid]!.isStartPage = on
                    return "start page"
                case 6:
                    pages[random.element(of: uuids)]!.id = random.below(20) + 1
                    return "id"
                case 7:
                    pages[random.element(of: uuids)]!.links.append(("\(random.below(20) + 1)", ""))
                    return "link by id"
                default:
                    pages[random.element(of: uuids)]!.text += "x"
                    return "text"
                }
            }

            /// The story files, by path.
            func files() -> [String: String] {
                var files: [String: String] = [:]
                for (uuid, page) in pages {
                    let links = page.links.enumerated().map { index, link in
                        #"{"component": "teaser", "_uid": "t\#(index)", "link": \#(storyLink(link.target, cached: link.cached))}"#
                    }
                    let see = (page.markdown.map { "[x](/\($0))" } + [page.text]).joined(separator: " ")
                    let extra = (page.isStartPage ? #""is_startpage": true, "# : "") + (page.id.map { #""id": \#($0), "# } ?? "")
                    let path = page.slug.hasSuffix("/") ? page.slug + "index.json" : page.slug + ".json"
                    files[path] = #"{\#(extra)"name": "\#(page.name)", "uuid": "\#(uuid)", "full_slug": "\#(page.slug)", "#
                        + #""content": {"_uid": "r", "component": "page", "body": [\#(links.joined(separator: ", "))], "see": "\#(see)"}}"#
                }
                return files
            }
        }

        @Test(
            "after random edits (links, names, slugs, stories added and removed, start pages, ids, links by id), the graph brought up to date is the crawl's, in memory and kept on disk",
            arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
        func randomEdits(seed: UInt64) async throws {
            var site = Site(seed: seed)
            let scratch = try TemporaryFolder()
            var folder = try TemporaryFolder()
            for (path, text) in site.files() { try folder.write(path, text) }
            let references = ReferenceCache()
            var graph = try await Fixture.crawl(folder, references: references)
            var replayed = 0
            for round in 1...30 {
                let edits = (0...site.random.below(2)).map { _ in site.edit() }
                folder = try TemporaryFolder()
                for (path, text) in site.files() { try folder.write(path, text) }
                let source = try LocalFolderSource(folder: folder.url)
                #expect(source.storyCount == site.pages.count)
                let crawled = try await Fixture.crawl(folder, references: ReferenceCache())
                let file = scratch.path("content-graph")
                try Data(try #require(KeptGraph.encoded(graph, entries: ["home"], baseURL: nil)).bytes).write(to: file)
                let kept = try #require(KeptGraph.reading(file))
                for update in [
                    try await graph.updated(with: source, references: references, entries: ["home"], baseURL: nil, jobs: 2),
                    try await kept.updated(with: source, references: references, jobs: 2),
                ].compactMap({ $0 }) {
                    if !update.keepsEdges { replayed += 1 }
                    #expect(Fixture.shape(update.graph) == Fixture.shape(crawled), "seed \(seed), round \(round): \(edits)")
                    #expect(update.graph.staleEdges == crawled.staleEdges, "seed \(seed), round \(round): \(edits)")
                }
                graph = crawled
            }
            #expect(replayed > 10, "seed \(seed): the rounds replayed the crawl \(replayed) times")
        }
    }
}

/// The picks a round of random edits makes, from a generator whose seed fixes them.
extension SplitMix64 {
    fileprivate mutating func below(_ limit: Int) -> Int { Int(next() % UInt64(limit)) }
    fileprivate mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    fileprivate mutating func element<T>(of values: [T]) -> T { values[below(values.count)] }
}
