import Foundation
import StoryModel
import StorySource
import Testing
import TestSupport
@testable import StoryCrawl

extension StoryCrawlTests {
    @Suite("Keeping a link graph for the next build")
    struct KeptGraphTests {
        typealias Update = LinkGraphUpdateTests

        /// Every kind of edge: a listing, Markdown links with an anchor, a relation, a stale
        /// saved slug, a broken link; and a story nothing links to.
        private func writeEveryKindOfEdge(in folder: TemporaryFolder, setupText: String = "Setup", see: String = "[faq](../faq#q1)") throws {
            try folder.write("home.json", storyText("u-home", "home", fields: #"""
                "nav": [\#(linkBlock(storyLink("u-docs", cached: "old-docs/")))], "broken": \#(storyLink("u-gone"))
                """#))
            try folder.write("docs/index.json", storyText("u-docs", "docs/", id: 10, fields: #""text": "[setup](./guides/setup)""#))
            try folder.write("docs/guides/setup.json", storyText("u-setup", "docs/guides/setup", fields: #"""
                "title": "\#(setupText)", "see": "\#(see)", "tags": ["0b87cb6f-b089-4dd2-a1e3-87f9427d0700"]
                """#))
            try folder.write("docs/faq.json", storyText("u-faq", "docs/faq"))
            try folder.write("tags/web.json", storyText("0b87cb6f-b089-4dd2-a1e3-87f9427d0700", "tags/web"))
            try folder.write("drafts/idea.json", storyText("u-idea", "drafts/idea"))
        }

        /// A folder of every kind of edge (``writeEveryKindOfEdge(in:)``), crawled: the folder,
        /// the references the crawl found, and its graph.
        private func crawledEveryKindOfEdge() async throws -> (folder: TemporaryFolder, references: ReferenceCache, graph: LinkGraph) {
            let folder = try TemporaryFolder()
            try writeEveryKindOfEdge(in: folder)
            let references = ReferenceCache()
            return (folder, references, try await Update.crawl(folder, references: references))
        }

        @Test("every kind of edge, how it resolved, and the orphans come back from the file as the crawl found them")
        func roundTrip() async throws {
            let (folder, references, graph) = try await crawledEveryKindOfEdge()
            #expect(Set(graph.edges.map(\.kind)) == [.multilink, .markdown, .listing, .relation])
            #expect(graph.staleEdges.count == 1 && graph.unresolvedEdges.count == 1 && graph.orphans.count == 1)

            let kept = try Update.kept(graph)
            #expect(kept.entries == ["home"] && kept.baseURL == nil)
            let update = try #require(try await kept.updated(with: try LocalFolderSource(folder: folder.url), references: references, jobs: 2)?.graph)
            #expect(Update.shape(update) == Update.shape(graph))
            #expect(update.staleEdges == graph.staleEdges && update.unresolvedEdges == graph.unresolvedEdges)
            #expect(update.root?.uuid == "u-home")
        }

        @Test("a graph of many edges is read back whole and in order, and refused when cut short")
        func manyEdges() async throws {
            let folder = try TemporaryFolder()
            try writeEveryKindOfEdge(in: folder)
            // More stories than a byte counts: positions past 255 still read.
            let links = (0..<300).map { #""l\#($0)": \#(storyLink("u-\($0)"))"# }.joined(separator: ", ")
            try folder.write("many.json", storyText("u-many", "many", fields: links))
            for index in 0..<300 { try folder.write("many/\(index).json", storyText("u-\(index)", "many/s\(index)")) }
            try folder.write("docs/faq.json", storyText("u-faq", "docs/faq", fields: #""more": \#(storyLink("u-many"))"#))
            let references = ReferenceCache()
            let graph = try await Update.crawl(folder, references: references)
            #expect(graph.stories.count > 300)
            let scratch = try TemporaryFolder()
            let file = scratch.path("content-graph")
            let bytes = try #require(KeptGraph.encoded(graph, entries: ["home"], baseURL: nil)).bytes
            try Data(bytes).write(to: file)
            let kept = try #require(KeptGraph.reading(file))
            let update = try #require(try await kept.updated(with: try LocalFolderSource(folder: folder.url), references: references, jobs: 2)?.graph)
            #expect(update.edges == graph.edges)
            #expect(Update.shape(update) == Update.shape(graph))
            for share in [2, 3, 7, 1_000] {
                try Data(bytes.dropLast(bytes.count / share)).write(to: file)
                #expect(KeptGraph.reading(file) == nil, "\(bytes.count / share) bytes cut off")
            }
        }

        @Test("a graph read keeps its edges' texts where they are in the file, replaced or removed since; a table added to copies them")
        func textsInPlace() async throws {
            let (folder, references, graph) = try await crawledEveryKindOfEdge()
            let scratch = try TemporaryFolder()
            let file = scratch.path("content-graph")
            try Data(try #require(KeptGraph.encoded(graph, entries: ["home"], baseURL: nil)).bytes).write(to: file)
            let kept = try #require(KeptGraph.reading(file))
            // Replaced as a build replaces it, then removed: the graph read still reads it as it was.
            try Data("storysite link graph 6\n".utf8).write(to: file, options: .atomic)
            try FileManager.default.removeItem(at: file)
            let update = try #require(try await kept.updated(with: try LocalFolderSource(folder: folder.url), references: references, jobs: 2))
            #expect(update.keepsEdges)
            #expect(update.graph.table.text.isInPlace)
            #expect(update.graph.edges == graph.edges)

            var added = update.graph.table
            added.append(
                source: 0, sourceUUID: "u-home", fieldPath: "extra", kind: .markdown, reference: .slug("docs"), anchor: "top",
                cachedURL: nil, target: "u-docs")
            #expect(!added.text.isInPlace && update.graph.table.text.isInPlace)
            #expect(added.count == graph.table.count + 1)
            let inPlace = update.graph.table.text.withUnsafeBufferPointer { Array($0) }
            #expect(added.text.withUnsafeBufferPointer { Array($0.prefix(inPlace.count)) } == inPlace)
            #expect(added.edge(at: added.count - 1) { update.graph.stories[$0].story.uuid }.fieldPath == "extra")
            #expect(update.graph.edges == graph.edges)
        }

        @Test("a graph brought up to date is kept as the same file with the new digests, as a fresh encoding of it would be")
        func keptAgainAfterUpdates() async throws {
            let (folder, references, graph) = try await crawledEveryKindOfEdge()
            var kept = try Update.kept(graph)
            let scratch = try TemporaryFolder()
            let file = scratch.path("content-graph")
            // Two edits in a row, each from the file the one before wrote.
            for text in ["Set up", "Setting up"] {
                try writeEveryKindOfEdge(in: folder, setupText: text)
                let source = try LocalFolderSource(folder: folder.url)
                let updated = try #require(try await kept.updated(with: source, references: references, jobs: 2))
                #expect(updated.keepsEdges)
                let update = updated.graph
                #expect(update.story(uuid: "u-setup")?.content["title"]?.stringValue == text)
                let encoded = kept.encoded(updatedTo: update)
                #expect(encoded.bytes == KeptGraph.encoded(update, entries: ["home"], baseURL: nil)?.bytes)
                // Written over the file the kept graph was read from, part of it from that file's mapping.
                try encoded.write(to: file)
                #expect(Array(try Data(contentsOf: file)) == encoded.bytes)
                kept = try #require(KeptGraph.reading(file))
                let crawled = try await Update.crawl(folder, references: ReferenceCache())
                #expect(Update.shape(update) == Update.shape(crawled), "after '\(text)'")
            }
        }

        @Test(
            "a changed link among every kind of edge replays the crawl: the crawl's graph, written whole, and brought up to date again from that file",
            arguments: ["[faq](../faq#q2)", "[idea](/drafts/idea)", "[nothing](/nowhere)", "no link"])
        func replayedAndKept(see: String) async throws {
            let (folder, references, graph) = try await crawledEveryKindOfEdge()
            let kept = try Update.kept(graph)

            try writeEveryKindOfEdge(in: folder, see: see)
            let updated = try #require(try await kept.updated(with: try LocalFolderSource(folder: folder.url), references: references, jobs: 2))
            #expect(!updated.keepsEdges)
            let crawled = try await Update.crawl(folder, references: ReferenceCache())
            #expect(Update.shape(updated.graph) == Update.shape(crawled))
            #expect(updated.graph.staleEdges == crawled.staleEdges && updated.graph.unresolvedEdges == crawled.unresolvedEdges)
            #expect(Set(updated.graph.edges.map(\.kind)) == Set(crawled.edges.map(\.kind)))
            let bytes = try #require(KeptGraph.encoded(updated.graph, entries: ["home"], baseURL: nil)).bytes
            #expect(bytes == KeptGraph.encoded(crawled, entries: ["home"], baseURL: nil)?.bytes)

            try writeEveryKindOfEdge(in: folder, setupText: "Set up", see: see)
            let again = try #require(try await Update.kept(updated.graph).updated(
                with: try LocalFolderSource(folder: folder.url), references: references, jobs: 2))
            #expect(again.keepsEdges)
            #expect(Update.shape(again.graph) == Update.shape(try await Update.crawl(folder, references: ReferenceCache())))
        }

        @Test("a kept graph whose root is not among its entries (no story at depth 0) is crawled again rather than replayed")
        func rootNotAnEntry() async throws {
            let (folder, references, crawled) = try await crawledEveryKindOfEdge()
            // As a damaged file may have it: every story a level deeper, so none is an entry.
            let deeper = LinkGraph(
                stories: crawled.stories.map { LinkGraph.Node(story: $0.story, depth: $0.depth + 1, firstLinkedFrom: $0.firstLinkedFrom) },
                table: crawled.table, orphans: crawled.orphans, root: crawled.root, jobs: 2)
            let kept = try Update.kept(deeper)
            // A story added, which only a replay of the crawl, not the graph as it was, takes in.
            try folder.write("docs/new.json", storyText("u-new", "docs/new"))
            #expect(try await kept.updated(with: try LocalFolderSource(folder: folder.url), references: references, jobs: 2) == nil)
        }

        @Test("a missing file, one of another version, one cut short and one with a count past its end are no kept graph")
        func unreadableFiles() async throws {
            let folder = try TemporaryFolder()
            try writeEveryKindOfEdge(in: folder)
            let bytes = try #require(KeptGraph.encoded(try await Update.crawl(folder, references: ReferenceCache()), entries: ["home"], baseURL: nil)).bytes
            let scratch = try TemporaryFolder()
            let file = scratch.path("content-graph")
            #expect(KeptGraph.reading(file) == nil)
            let magic = Array(KeptGraph.magic.utf8)
            let otherVersion = Array("storysite link graph 0\n".utf8) + bytes.dropFirst(magic.count)
            var pastItsEnd = bytes
            // A count larger than the file before the first (of entries).
            pastItsEnd.insert(contentsOf: [0xFF, 0xFF, 0x03], at: try #require(Self.offsetAfterTable(of: bytes)))
            for broken in [otherVersion, Array(bytes.dropLast()), Array(bytes.dropLast(bytes.count / 2)), pastItsEnd, bytes + [0]] {
                try Data(broken).write(to: file)
                #expect(KeptGraph.reading(file) == nil)
            }
            try Data(bytes).write(to: file)
            #expect(KeptGraph.reading(file) != nil)
        }

        /// Where the records start in a file `ByteRecordWriter` wrote: past the magic and the table.
        private static func offsetAfterTable(of bytes: [UInt8]) -> Int? {
            bytes.withUnsafeBytes { ByteRecordReader($0, magic: KeptGraph.magic)?.offset }
        }

        @Test("after a kept graph is brought up to date, the references written back still hold those of the stories that did not change")
        func referencesKeptForTheNextBuild() async throws {
            let folder = try TemporaryFolder()
            try writeEveryKindOfEdge(in: folder)
            let scratch = try TemporaryFolder()
            let cacheFile = scratch.path("content-references")
            let first = ReferenceCache.reading(cacheFile)
            let graph = try await Update.crawl(folder, references: first)
            try Data(try #require(first.encoded()).bytes).write(to: cacheFile)

            // Two edits in a row, each brought up to date from the graph and the file the one before left.
            var earlier = graph
            for text in ["Set up", "Setting up"] {
                try writeEveryKindOfEdge(in: folder, setupText: text)
                let second = ReferenceCache.reading(cacheFile)
                let update = try #require(
                    try await Update.kept(earlier).updated(with: try LocalFolderSource(folder: folder.url), references: second, jobs: 2)?.graph)
                try Data(try #require(second.encoded()).bytes).write(to: cacheFile)

                let written = ReferenceCache.reading(cacheFile, writesBack: false)
                for node in update.stories {
                    let digest = try #require(node.story.givenDigest)
                    #expect(written.kept(forDigest: digest, baseURL: nil, rootSlug: "home") != nil, "'\(text)': \(node.story.fullSlug)")
                }
                // The edited story's earlier version is not kept.
                let before = try #require(earlier.story(uuid: "u-setup")?.givenDigest)
                #expect(before != update.story(uuid: "u-setup")?.givenDigest)
                #expect(written.kept(forDigest: before, baseURL: nil, rootSlug: "home") == nil, "'\(text)'")
                earlier = update
            }
        }
    }
}
