import Foundation
import StoryModel
import StorySource
import Testing
import TestSupport
@testable import StoryCrawl

extension StoryCrawlTests {
    @Suite("Bringing a link graph up to date without crawling")
    struct LinkGraphUpdateTests {
        /// How the earlier crawl's graph is held: in memory (`serve`), or kept on disk by the last
        /// build (``KeptGraph``).
        enum Held: String, CaseIterable, Sendable {
            case inMemory = "in memory"
            case kept = "kept on disk"
        }

        /// home → a → b, and c, which nothing links to; `a` says `text`.
        static func write(_ folder: TemporaryFolder, aLinksTo target: String = "u-b", text: String = "first", bSlug: String = "b", cText: String = "c") throws {
            try folder.write("home.json", storyText("u-home", "home", fields: #""link": \#(storyLink("u-a"))"#))
            try folder.write("a.json", storyText("u-a", "a", fields: #""link": \#(storyLink(target)), "text": "\#(text)""#))
            try folder.write("b.json", storyText("u-b", bSlug))
            try folder.write("c.json", storyText("u-c", "c", fields: #""text": "\#(cText)""#))
        }

        static func crawl(_ folder: TemporaryFolder, references: ReferenceCache) async throws -> LinkGraph {
            try await Crawler(source: try LocalFolderSource(folder: folder.url), referenceCache: references).crawl()
        }

        /// `graph` brought up to date with `folder`, held as `held` says.
        static func updated(_ graph: LinkGraph, held: Held, _ folder: TemporaryFolder, references: ReferenceCache) async throws -> LinkGraph.Update? {
            let source = try LocalFolderSource(folder: folder.url)
            switch held {
            case .inMemory:
                return try await graph.updated(with: source, references: references, entries: ["home"], baseURL: nil, jobs: 2)
            case .kept:
                return try await kept(graph).updated(with: source, references: references, jobs: 2)
            }
        }

        /// `graph`, crawled from `home`, written to a file and read back.
        static func kept(_ graph: LinkGraph) throws -> KeptGraph {
            let scratch = try TemporaryFolder()
            let file = scratch.path("content-graph")
            try Data(try #require(KeptGraph.encoded(graph, entries: ["home"], baseURL: nil)).bytes).write(to: file)
            return try #require(KeptGraph.reading(file))
        }

        /// What tells two graphs apart: nodes, edges and orphans, each story with its digest,
        /// and how the edges resolved.
        static func shape(_ graph: LinkGraph) -> [String] {
            graph.stories.map { "\($0.story.uuid) \($0.story.digest) \($0.depth) \($0.firstLinkedFrom ?? "-")" }
                + graph.edges.enumerated().map { index, edge in
                    "\(edge.source) \(edge.fieldPath) \(edge.kind.rawValue) \(edge.reference) \(edge.anchor ?? "-") \(edge.cachedURL ?? "-") "
                        + "\(edge.target ?? "-") \(graph.targetPosition(ofEdge: index) ?? -1) \(graph.isStaleEdge(at: index))"
                }
                + graph.stories.indices.map { "backlinks \($0): \(graph.backlinkPositions(to: $0))" }
                + graph.orphans.map { "orphan \($0.uuid) \($0.digest)" } + ["root \(graph.root?.digest ?? "-")"]
        }

        @Test("a change of content that makes the same links gives the crawl's graph, with the new story in it", arguments: Held.allCases)
        func textEdit(held: Held) async throws {
            let folder = try TemporaryFolder()
            try Self.write(folder)
            let references = ReferenceCache()
            let graph = try await Self.crawl(folder, references: references)

            try Self.write(folder, text: "second", cText: "c changed")
            let updated = try #require(try await Self.updated(graph, held: held, folder, references: references))
            #expect(updated.keepsEdges)
            let update = updated.graph
            let crawled = try await Self.crawl(folder, references: ReferenceCache())
            #expect(Self.shape(update) == Self.shape(crawled))
            #expect(update.story(uuid: "u-a")?.content["text"]?.stringValue == "second")
            #expect(update.orphans.first?.content["text"]?.stringValue == "c changed")
        }

        @Test("a new name, position, tags or dates, of a story reached or not, give the crawl's graph with the new heads", arguments: Held.allCases)
        func headEdit(held: Held) async throws {
            let folder = try TemporaryFolder()
            try Self.write(folder)
            let references = ReferenceCache()
            let graph = try await Self.crawl(folder, references: references)

            let head = #""name": "Renamed", "position": 3, "tag_list": ["news"], "published_at": "2026-12-04T10:00:00.000Z""#
            try folder.write("b.json", #"{"uuid": "u-b", "full_slug": "b", \#(head), "content": {"_uid": "root-u-b", "component": "page"}}"#)
            try folder.write("c.json", #"{"uuid": "u-c", "full_slug": "c", \#(head), "content": {"_uid": "root-u-c", "component": "page", "text": "c"}}"#)
            let updated = try #require(try await Self.updated(graph, held: held, folder, references: references))
            #expect(updated.keepsEdges)
            let update = updated.graph
            let crawled = try await Self.crawl(folder, references: ReferenceCache())
            #expect(Self.shape(update) == Self.shape(crawled))
            #expect(update.story(uuid: "u-b")?.name == "Renamed")
            #expect(update.story(uuid: "u-b")?.tags == ["news"])
            #expect(update.orphans.first?.name == "Renamed")
        }

        /// home → a → b, and c → d → home, which nothing reached links to; c and d are orphans.
        static func writeTwoChains(_ folder: TemporaryFolder, aLinksTo target: String) throws {
            try folder.write("home.json", storyText("u-home", "home", fields: #""link": \#(storyLink("u-a"))"#))
            try folder.write("a.json", storyText("u-a", "a", fields: #""link": \#(storyLink(target, cached: "x")), "more": "[home](/home#top)""#))
            try folder.write("b.json", storyText("u-b", "b", fields: #""back": \#(storyLink("u-a"))"#))
            try folder.write("c.json", storyText("u-c", "c", fields: #""link": \#(storyLink("u-d")), "see": "[b](/b)""#))
            try folder.write("d.json", storyText("u-d", "d", fields: #""link": \#(storyLink("u-home")), "gone": \#(storyLink("u-gone"))"#))
        }

        @Test(
            "a changed link replays the crawl over the earlier edges: the crawl's graph, with the stories it now reaches (and theirs) and without those it no longer does",
            arguments: Held.allCases, ["u-c", "u-d", "u-gone", "u-home", "u-b"])
        func changedLink(held: Held, target: String) async throws {
            let folder = try TemporaryFolder()
            try Self.writeTwoChains(folder, aLinksTo: "u-b")
            let references = ReferenceCache()
            let graph = try await Self.crawl(folder, references: references)
            #expect(graph.orphans.map(\.uuid) == ["u-c", "u-d"])

            try Self.writeTwoChains(folder, aLinksTo: target)
            // Another saved slug is another reference, even to the same story.
            if target == "u-b" { try Self.replace(#""cached_url": "x""#, with: #""cached_url": "b""#, in: "a.json", of: folder) }
            let updated = try #require(try await Self.updated(graph, held: held, folder, references: references))
            #expect(!updated.keepsEdges)
            let crawled = try await Self.crawl(folder, references: ReferenceCache())
            #expect(Self.shape(updated.graph) == Self.shape(crawled))
            #expect(updated.graph.staleEdges == crawled.staleEdges && updated.graph.unresolvedEdges == crawled.unresolvedEdges)
            #expect(updated.graph.root?.uuid == "u-home")
        }

        static func replace(_ old: String, with new: String, in path: String, of folder: TemporaryFolder) throws {
            let text = try String(contentsOf: folder.path(path), encoding: .utf8)
            #expect(text.contains(old))
            try folder.write(path, text.replacingOccurrences(of: old, with: new))
        }

        /// A site with links by UUID (one saved with a slug), by slug, a broken one, a folder
        /// listing, and a chain nothing reached links to: home → a → b, home → blog/ → blog/x,
        /// c → d.
        static let linkedSite: [String: String] = [
            "home.json": storyText("u-home", "home", fields: #""link": \#(storyLink("u-a")), "nav": "[blog](/blog/)""#),
            "a.json": storyText("u-a", "a", fields: #""link": \#(storyLink("u-b", cached: "b")), "see": "[b](/b) [z](/z)", "broken": \#(storyLink("u-new"))"#),
            "b.json": storyText("u-b", "b", fields: #""back": \#(storyLink("u-a"))"#),
            "blog/index.json": storyText("u-blog", "blog/"),
            "blog/x.json": storyText("u-x", "blog/x"),
            "c.json": storyText("u-c", "c", fields: #""link": \#(storyLink("u-d"))"#),
            "d.json": storyText("u-d", "d"),
        ]

        /// Edits of ``linkedSite`` that add, remove or move stories: written files (nil removes one).
        static let storyChanges: [String: [String: String?]] = [
            "added, named by a broken link": ["new.json": storyText("u-new", "new")],
            "added to a listed folder": ["blog/y.json": storyText("u-y", "blog/y")],
            "added, named by nothing": ["e.json": storyText("u-e", "e")],
            "removed, linked": ["b.json": nil],
            "removed, listed": ["blog/x.json": nil],
            "removed, not reached": ["d.json": nil],
            "new slug of a story linked by UUID and by slug": ["b.json": storyText("u-b", "b2", fields: #""back": \#(storyLink("u-a"))"#)],
            "new slug a broken link names": ["c.json": storyText("u-c", "z", fields: #""link": \#(storyLink("u-d"))"#)],
            "new id": ["b.json": storyText("u-b", "b", id: 7, fields: #""back": \#(storyLink("u-a"))"#)],
            "now a start page": ["b.json": #"{"uuid": "u-b", "full_slug": "b", "is_startpage": true, "content": {"_uid": "r", "component": "page"}}"#],
            "now a folder": ["d.json": #"{"uuid": "u-d", "full_slug": "d", "is_folder": true, "content": {"_uid": "r", "component": "page"}}"#],
            "moved into a listed folder": ["d.json": storyText("u-d", "blog/d")],
            "moved and linked to by its new slug": ["d.json": storyText("u-d", "z"), "b.json": storyText("u-b", "b", fields: #""more": "[z](/z)""#)],
        ]

        @Test(
            "a story added, removed, or with a new slug, id or start page replays the crawl over the earlier edges: the crawl's graph",
            arguments: Held.allCases, storyChanges.keys.sorted())
        func storiesAddedRemovedOrMoved(held: Held, change: String) async throws {
            let folder = try TemporaryFolder()
            for (path, text) in Self.linkedSite { try folder.write(path, text) }
            let references = ReferenceCache()
            let graph = try await Self.crawl(folder, references: references)
            #expect(graph.orphans.map(\.uuid) == ["u-c", "u-d"] && graph.unresolvedEdges.count == 2)

            for (path, text) in Self.storyChanges[change]! {
                if let text { try folder.write(path, text) } else { try FileManager.default.removeItem(at: folder.path(path)) }
            }
            let updated = try #require(try await Self.updated(graph, held: held, folder, references: references))
            #expect(!updated.keepsEdges)
            let crawled = try await Self.crawl(folder, references: ReferenceCache())
            #expect(Self.shape(updated.graph) == Self.shape(crawled))
            #expect(updated.graph.staleEdges == crawled.staleEdges && updated.graph.unresolvedEdges == crawled.unresolvedEdges)
        }

        @Test("a new link by numeric id is found again when no two stories share an id; when two do, a moved link needs a crawl", arguments: Held.allCases, [false, true])
        func linkByID(held: Held, idRepeats: Bool) async throws {
            let folder = try TemporaryFolder()
            for (path, text) in Self.linkedSite { try folder.write(path, text) }
            try folder.write("d.json", storyText("u-d", "d", id: 7))
            if idRepeats { try folder.write("blog/x.json", storyText("u-x", "blog/x", id: 7)) }
            let references = ReferenceCache()
            let graph = try await Self.crawl(folder, references: references)

            // a's broken link now names the story with id 7 (d, or blog/x, the first file with it).
            try folder.write("a.json", Self.linkedSite["a.json"]!.replacingOccurrences(of: #""id": "u-new""#, with: #""id": "7""#))
            let updated = try await Self.updated(graph, held: held, folder, references: references)
            guard !idRepeats else { return #expect(updated == nil) }
            let update = try #require(updated)
            let crawled = try await Self.crawl(folder, references: ReferenceCache())
            #expect(Self.shape(update.graph) == Self.shape(crawled))
            #expect(update.graph.story(uuid: "u-d") != nil, "d is reached by its id")
        }

        @Test("an entry removed, or moved to another slug, needs a crawl", arguments: Held.allCases, ["removed", "moved"])
        func entryChange(held: Held, change: String) async throws {
            let folder = try TemporaryFolder()
            for (path, text) in Self.linkedSite { try folder.write(path, text) }
            let references = ReferenceCache()
            let graph = try await Self.crawl(folder, references: references)
            if change == "removed" {
                try FileManager.default.removeItem(at: folder.path("home.json"))
            } else {
                try folder.write("home.json", storyText("u-home", "start", fields: #""link": \#(storyLink("u-a"))"#))
            }
            #expect(try await Self.updated(graph, held: held, folder, references: references) == nil)
        }

        @Test("a story added that an entry may name (here by UUID, after the slug it names) needs a crawl", arguments: Held.allCases)
        func entryNamesAddedStory(held: Held) async throws {
            let folder = try TemporaryFolder()
            for (path, text) in Self.linkedSite { try folder.write(path, text) }
            let references = ReferenceCache()
            let graph = try await Self.crawl(folder, references: references)
            try folder.write("other.json", storyText("home", "other"))
            #expect(try await Self.updated(graph, held: held, folder, references: references) == nil)
        }

        @Test("a changed story whose earlier references were not kept has its edges found again: the crawl's graph", arguments: Held.allCases)
        func unknownReferences(held: Held) async throws {
            let folder = try TemporaryFolder()
            try Self.write(folder)
            let graph = try await Self.crawl(folder, references: ReferenceCache())
            try Self.write(folder, text: "second")
            let updated = try #require(try await Self.updated(graph, held: held, folder, references: ReferenceCache()))
            #expect(!updated.keepsEdges)
            let crawled = try await Self.crawl(folder, references: ReferenceCache())
            #expect(Self.shape(updated.graph) == Self.shape(crawled))
        }
    }
}
