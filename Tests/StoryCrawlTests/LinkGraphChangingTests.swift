import Foundation
import StoryModel
import StorySource
import Testing
import TestSupport
@testable import StoryCrawl

extension StoryCrawlTests {
    @Suite("Bringing a link graph up to date with the stories a save changed")
    struct LinkGraphChangingTests {
        typealias Fixture = StoryCrawlTests.LinkGraphUpdateTests

        /// The folder written as ``LinkGraphUpdateTests/write(_:aLinksTo:text:bSlug:cText:)`` does,
        /// crawled with a reference cache that keeps what it found.
        static func crawled() async throws -> (folder: TemporaryFolder, graph: LinkGraph, references: ReferenceCache) {
            let folder = try TemporaryFolder()
            try Fixture.write(folder)
            let references = ReferenceCache()
            return (folder, try await Fixture.crawl(folder, references: references), references)
        }

        /// The story with `uuid` as the folder holds it now.
        static func current(_ uuid: String, in folder: TemporaryFolder) throws -> Story {
            try #require(try LocalFolderSource(folder: folder.url).story(for: .uuid(uuid)))
        }

        @Test("a new version whose text alone changed is put in place, and the graph is the one a crawl gives")
        func textChange() async throws {
            let (folder, graph, references) = try await Self.crawled()
            try Fixture.write(folder, text: "second")
            let update = try #require(graph.updated(changing: [try Self.current("u-a", in: folder)], references: references, baseURL: nil))
            #expect(graph.story(uuid: "u-a")?.content["text"]?.stringValue == "first", "the earlier graph is left as it was")
            #expect(update.story(uuid: "u-a")?.content["text"]?.stringValue == "second")
            let crawled = try await Fixture.crawl(folder, references: ReferenceCache())
            #expect(Fixture.shape(update) == Fixture.shape(crawled))
        }

        @Test("a new version whose name changed is put in place: the crawl reads no name, and the graph is the one a crawl gives")
        func nameChange() async throws {
            let (folder, graph, references) = try await Self.crawled()
            try folder.write("a.json", storyText("u-a", "a", fields: #""link": \#(storyLink("u-b")), "text": "first""#)
                .replacingOccurrences(of: #"{"uuid""#, with: #"{"name": "Renamed", "uuid""#))
            let update = try #require(graph.updated(changing: [try Self.current("u-a", in: folder)], references: references, baseURL: nil))
            #expect(update.story(uuid: "u-a")?.name == "Renamed")
            let crawled = try await Fixture.crawl(folder, references: ReferenceCache())
            #expect(Fixture.shape(update) == Fixture.shape(crawled))
        }

        @Test("a changed root story is the graph's root in its new version")
        func rootChange() async throws {
            let (folder, graph, references) = try await Self.crawled()
            try folder.write("home.json", storyText("u-home", "home", fields: #""link": \#(storyLink("u-a")), "text": "new""#))
            let update = try #require(graph.updated(changing: [try Self.current("u-home", in: folder)], references: references, baseURL: nil))
            #expect(update.root?.content["text"]?.stringValue == "new")
            #expect(update.story(uuid: "u-home")?.content["text"]?.stringValue == "new")
        }

        @Test("an unreached story whose text changed is updated among the orphans")
        func orphanChange() async throws {
            let (folder, graph, references) = try await Self.crawled()
            #expect(graph.orphans.map(\.uuid) == ["u-c"])
            try Fixture.write(folder, cText: "c changed")
            let update = try #require(graph.updated(changing: [try Self.current("u-c", in: folder)], references: references, baseURL: nil))
            #expect(update.orphans.map(\.uuid) == ["u-c"])
            #expect(update.orphans.first?.content["text"]?.stringValue == "c changed")
            #expect(update.story(uuid: "u-c") == nil, "it is still not reached")
            let crawled = try await Fixture.crawl(folder, references: ReferenceCache())
            #expect(Fixture.shape(update) == Fixture.shape(crawled))
        }

        @Test("a changed slug, a new link, a story the graph does not know, or the same story twice is not put in place: the save needs a build",
              arguments: ["slug", "link", "unknown", "twice"])
        func needsCrawl(change: String) async throws {
            let (folder, graph, references) = try await Self.crawled()
            let changed: [Story]
            switch change {
            case "slug":
                try Fixture.write(folder, bSlug: "b-renamed")
                changed = [try Self.current("u-b", in: folder)]
            case "link":
                try Fixture.write(folder, aLinksTo: "u-c")
                changed = [try Self.current("u-a", in: folder)]
            case "unknown":
                try folder.write("d.json", storyText("u-d", "d"))
                changed = [try Self.current("u-d", in: folder)]
            default:
                try Fixture.write(folder, text: "second")
                changed = [try Self.current("u-a", in: folder), try Self.current("u-a", in: folder)]
            }
            #expect(graph.updated(changing: changed, references: references, baseURL: nil) == nil)
        }

        @Test("a text change is not put in place when the cache does not hold the earlier version's references")
        func unknownReferences() async throws {
            let folder = try TemporaryFolder()
            try Fixture.write(folder)
            let graph = try await Fixture.crawl(folder, references: ReferenceCache())
            try Fixture.write(folder, text: "second")
            #expect(graph.updated(changing: [try Self.current("u-a", in: folder)], references: ReferenceCache(), baseURL: nil) == nil)
        }

        @Test("no change at all gives the same graph")
        func nothingChanged() async throws {
            let (_, graph, references) = try await Self.crawled()
            let update = try #require(graph.updated(changing: [], references: references, baseURL: nil))
            #expect(Fixture.shape(update) == Fixture.shape(graph))
        }
    }
}
