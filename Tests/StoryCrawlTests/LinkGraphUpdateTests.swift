import Foundation
import StoryModel
import StorySource
import Testing
import TestSupport
@testable import StoryCrawl

extension StoryCrawlTests {
    @Suite("Bringing a link graph up to date without crawling")
    struct LinkGraphUpdateTests {
        /// home → a → b, and c, which nothing links to; `a` says `text`.
        private func write(_ folder: TemporaryFolder, aLinksTo target: String = "u-b", text: String = "first", bSlug: String = "b", cText: String = "c") throws {
            try folder.write("home.json", storyText("u-home", "home", fields: #""link": \#(storyLink("u-a"))"#))
            try folder.write("a.json", storyText("u-a", "a", fields: #""link": \#(storyLink(target)), "text": "\#(text)""#))
            try folder.write("b.json", storyText("u-b", bSlug))
            try folder.write("c.json", storyText("u-c", "c", fields: #""text": "\#(cText)""#))
        }

        private func crawl(_ folder: TemporaryFolder, references: ReferenceCache) async throws -> LinkGraph {
            try await Crawler(source: try LocalFolderSource(folder: folder.url), referenceCache: references).crawl()
        }

        private func updated(_ graph: LinkGraph, _ folder: TemporaryFolder, references: ReferenceCache) async throws -> LinkGraph? {
            try await graph.updated(with: try LocalFolderSource(folder: folder.url), references: references, baseURL: nil, jobs: 2)
        }

        /// What tells two graphs apart: nodes, edges and orphans, each story with its digest.
        private func shape(_ graph: LinkGraph) -> [String] {
            graph.stories.map { "\($0.story.uuid) \($0.story.digest) \($0.depth) \($0.firstLinkedFrom ?? "-")" }
                + graph.edges.map { "\($0.source) \($0.fieldPath) \($0.kind.rawValue) \($0.reference) \($0.target ?? "-")" }
                + graph.orphans.map { "orphan \($0.uuid) \($0.digest)" } + ["root \(graph.root?.digest ?? "-")"]
        }

        @Test("a change of content that makes the same links gives the crawl's graph, with the new story in it")
        func textEdit() async throws {
            let folder = try TemporaryFolder()
            try write(folder)
            let references = ReferenceCache()
            let graph = try await crawl(folder, references: references)

            try write(folder, text: "second", cText: "c changed")
            let update = try #require(try await updated(graph, folder, references: references))
            let crawled = try await crawl(folder, references: ReferenceCache())
            #expect(shape(update) == shape(crawled))
            #expect(update.story(uuid: "u-a")?.content["text"]?.stringValue == "second")
            #expect(update.orphans.first?.content["text"]?.stringValue == "c changed")
        }

        @Test("a changed link, slug, or set of stories needs a crawl", arguments: ["link", "slug", "added", "removed", "orphan slug"])
        func structuralChange(change: String) async throws {
            let folder = try TemporaryFolder()
            try write(folder)
            let references = ReferenceCache()
            let graph = try await crawl(folder, references: references)

            switch change {
            case "link": try write(folder, aLinksTo: "u-c")
            case "slug": try write(folder, bSlug: "b-renamed")
            case "added": try folder.write("d.json", storyText("u-d", "d"))
            case "removed": try FileManager.default.removeItem(at: folder.path("c.json"))
            default: try folder.write("c.json", storyText("u-c", "c-renamed", fields: #""text": "c""#))
            }
            #expect(try await updated(graph, folder, references: references) == nil)
        }

        @Test("a story whose earlier references were not kept needs a crawl")
        func unknownReferences() async throws {
            let folder = try TemporaryFolder()
            try write(folder)
            let graph = try await crawl(folder, references: ReferenceCache())
            try write(folder, text: "second")
            #expect(try await updated(graph, folder, references: ReferenceCache()) == nil)
        }
    }
}
