import Foundation
import StoryModel
import Testing
import TestSupport
@testable import StoryCrawl

extension StoryCrawlTests {
    @Suite("References kept between crawls")
    struct ReferenceCacheTests {
        /// home → a, b; a → b; each story with the digest `digest-<uuid>` (`digest-<uuid>-edited`
        /// for the story `edited`) and, with `links`, its links.
        private func space(links: Bool, edited: String? = nil) throws -> [Story] {
            let stories = [("u-home", "home", "u-a"), ("u-a", "a", "u-b"), ("u-b", "b", nil)]
            return try stories.map { uuid, slug, target in
                let fields = links ? target.map { #""link": \#(storyLink($0)), "text": "[b](/b)""# } ?? "" : ""
                let object = try #require(try JSONValue(parsing: storyText(uuid, slug, fields: fields)).objectValue)
                return try Story(json: object, digest: "digest-\(uuid)" + (uuid == edited ? "-edited" : ""))
            }
        }

        /// Crawls `stories` with the cache kept in `file`, then writes the cache back, as a build does.
        private func crawlKeeping(_ stories: [Story], in file: URL) async throws -> LinkGraph {
            let cache = ReferenceCache.reading(file)
            let graph = try await Crawler(source: RecordingSource(stories), referenceCache: cache).crawl()
            try Data(try #require(cache.encoded()).bytes).write(to: file)
            return graph
        }

        /// Crawls `stories` with the cache kept in `file`, as a build reads it, without writing it back.
        private func crawlReading(_ stories: [Story], from file: URL) async throws -> LinkGraph {
            try await Crawler(source: RecordingSource(stories), referenceCache: .reading(file)).crawl()
        }

        /// Crawls ``space(links:edited:)`` with `baseURL` and `cache`, as a language of a site
        /// whose languages have roots of their own would be crawled, one after the other.
        private func crawl(links: Bool, baseURL: String? = nil, with cache: ReferenceCache) async throws -> LinkGraph {
            try await Crawler(source: RecordingSource(try space(links: links)), baseURL: baseURL, referenceCache: cache).crawl()
        }

        private func edges(_ graph: LinkGraph) -> [String] {
            graph.edges.map { "\($0.source) \($0.fieldPath) \($0.kind.rawValue) \($0.reference) \($0.target ?? "-")" }
        }

        @Test("a crawl takes a story's references from the file the last crawl kept, by the story's digest")
        func keptByDigest() async throws {
            let folder = try TemporaryFolder()
            let file = folder.path("references")
            let first = try await crawlKeeping(try space(links: true), in: file)
            #expect(edges(first) == [
                "u-home link multilink u-a u-a", "u-home text markdown b u-b", "u-a link multilink u-b u-b", "u-a text markdown b u-b",
            ])

            // The same digests promise the same content: the kept references stand for it.
            let kept = ReferenceCache.reading(file)
            let second = try await Crawler(source: RecordingSource(try space(links: false)), referenceCache: kept).crawl()
            #expect(edges(second) == edges(first))

            // Another base URL can change what a link means: the references are found again.
            let rebased = ReferenceCache.reading(file)
            let third = try await Crawler(
                source: RecordingSource(try space(links: false)), baseURL: "https://example.com/", referenceCache: rebased
            ).crawl()
            #expect(edges(third).isEmpty)
        }

        @Test("a file written again after one story changed keeps the others' references, copied, and gives them again")
        func rewrittenAfterEdit() async throws {
            let folder = try TemporaryFolder()
            let file = folder.path("references")
            let full = try await crawlKeeping(try space(links: true), in: file)
            _ = try await crawlKeeping(try space(links: true, edited: "u-a"), in: file)

            // Without links in the content, every reference found comes from the file.
            let kept = try await crawlReading(try space(links: false, edited: "u-a"), from: file)
            #expect(edges(kept) == edges(full))
        }

        @Test("the references of a crawl of many stories, encoded while it runs on several threads, all come back from the file")
        func manyStories() async throws {
            let folder = try TemporaryFolder()
            let file = folder.path("references")
            func space(links: Bool) throws -> [Story] {
                let count = 700
                let homeLinks = (0..<count).map { #""l\#($0)": \#(storyLink("u-\($0)"))"# }.joined(separator: ", ")
                let home = storyText("u-home", "home", fields: links ? homeLinks : "")
                let others = (0..<count).map { index in
                    storyText("u-\(index)", "s\(index)", fields: links ? #""next": \#(storyLink("u-\((index + 1) % count)"))"# : "")
                }
                return try ([("u-home", home)] + others.enumerated().map { ("u-\($0.offset)", $0.element) }).map { uuid, text in
                    try Story(json: try #require(try JSONValue(parsing: text).objectValue), digest: "digest-\(uuid)")
                }
            }
            let full = try await crawlKeeping(try space(links: true), in: file)
            #expect(full.edges.count == 1_400)
            let kept = try await crawlReading(try space(links: false), from: file)
            #expect(edges(kept) == edges(full))
        }

        @Test("every field of a reference comes back from the file, its lookup order whether a story link's or any other")
        func everyFieldKept() throws {
            let folder = try TemporaryFolder()
            let file = folder.path("references")
            let story = try #require(try space(links: false).first)
            let references = [
                // A link by numeric id with a saved slug: the order a story link has.
                ExtractedReference(
                    fieldPath: "body[0].link", kind: .multilink, reference: .uuid("12"), anchor: "top", cachedURL: "about",
                    lookupOrder: StoryLink(reference: .uuid("12"), cachedURL: "about").lookupOrder),
                ExtractedReference(fieldPath: "text", kind: .markdown, reference: .slug("blog/"), anchor: nil),
                ExtractedReference(fieldPath: "author", kind: .relation, reference: .uuid("0b87cb6f-b089-4dd2-a1e3-87f9427d0700")),
                // Orders no story link has: none at all, and one by id first.
                ExtractedReference(fieldPath: "odd", kind: .richtext, reference: .uuid("u-x"), cachedURL: "x", lookupOrder: []),
                ExtractedReference(fieldPath: "odder", kind: .richtext, reference: .uuid("7"), lookupOrder: [.id(7), .slug("seven")]),
            ]
            let writing = ReferenceCache.reading(file)
            #expect(writing.references(in: story, baseURL: nil, rootSlug: "home") { references } == references)
            try Data(try #require(writing.encoded()).bytes).write(to: file)

            let read = ReferenceCache.reading(file)
            #expect(read.kept(forDigest: try #require(story.givenDigest), baseURL: nil, rootSlug: "home") == references)
        }

        @Test("a cache kept in memory that starts from the file (serve's) gives the kept references, and writes no file")
        func inMemoryFromFile() async throws {
            let folder = try TemporaryFolder()
            let file = folder.path("references")
            let full = try await crawlKeeping(try space(links: true), in: file)

            let serving = ReferenceCache.reading(file, writesBack: false)
            let kept = try await Crawler(source: RecordingSource(try space(links: false)), referenceCache: serving).crawl()
            #expect(edges(kept) == edges(full))
            // A story changed since: its references are found, and kept in memory for the next crawl.
            _ = try await Crawler(source: RecordingSource(try space(links: true, edited: "u-a")), referenceCache: serving).crawl()
            let again = try await Crawler(source: RecordingSource(try space(links: false, edited: "u-a")), referenceCache: serving).crawl()
            #expect(edges(again) == edges(full))
            #expect(serving.encoded() == nil)
        }

        @Test("a cache file keeps the references of each base URL and root apart, for a site whose languages are crawled from roots of their own")
        func onDiskKeepsEveryContext() async throws {
            let folder = try TemporaryFolder()
            let file = folder.path("references")
            let rebasedURL = "https://example.com/"
            func crawls(links: Bool, with cache: ReferenceCache) async throws -> (LinkGraph, LinkGraph) {
                (try await crawl(links: links, with: cache), try await crawl(links: links, baseURL: rebasedURL, with: cache))
            }
            let first = ReferenceCache.reading(file)
            let (plain, rebased) = try await crawls(links: true, with: first)
            try Data(try #require(first.encoded()).bytes).write(to: file)

            for round in 1...2 {
                let kept = ReferenceCache.reading(file)
                let (keptPlain, keptRebased) = try await crawls(links: false, with: kept)
                #expect(edges(keptPlain) == edges(plain), "round \(round)")
                #expect(edges(keptRebased) == edges(rebased), "round \(round)")
                #expect(kept.encoded() == nil, "round \(round): the file holds what both crawls found")
            }
            // A crawl from one root alone writes that root's references alone.
            let one = ReferenceCache.reading(file)
            _ = try await crawl(links: false, with: one)
            try Data(try #require(one.encoded()).bytes).write(to: file)
            let (onlyPlain, noneRebased) = try await crawls(links: false, with: .reading(file))
            #expect(edges(onlyPlain) == edges(plain))
            #expect(edges(noneRebased).isEmpty)
        }

        @Test("a cache kept in memory keeps the references of each base URL and root aside while another's are asked for, those of its file too")
        func inMemoryKeepsEveryContext() async throws {
            let folder = try TemporaryFolder()
            let file = folder.path("references")
            let full = try await crawlKeeping(try space(links: true), in: file)
            let serving = ReferenceCache.reading(file, writesBack: false)
            let rebased = try await crawl(links: true, baseURL: "https://example.com/", with: serving)
            #expect(!edges(rebased).isEmpty)
            for _ in 1...2 {
                let kept = try await crawl(links: false, with: serving)
                #expect(edges(kept) == edges(full), "from the file, after another base URL")
                let keptRebased = try await crawl(links: false, baseURL: "https://example.com/", with: serving)
                #expect(edges(keptRebased) == edges(rebased), "found with the other base URL, kept aside")
            }
        }

        @Test("a cache kept in memory (serve's) gives a story's references again for the same digest, and writes no file")
        func inMemory() async throws {
            let cache = ReferenceCache()
            let first = try await Crawler(source: RecordingSource(try space(links: true)), referenceCache: cache).crawl()
            let second = try await Crawler(source: RecordingSource(try space(links: false)), referenceCache: cache).crawl()
            #expect(edges(second) == edges(first))
            #expect(cache.encoded() == nil)
        }

        @Test("a record read only when its story is asked for, and found unreadable then, gives way to the story's own references, which are written again")
        func unreadableRecord() async throws {
            let folder = try TemporaryFolder()
            let file = folder.path("references")
            // A file whose framing is sound, with a record for `a` that names a string the table lacks.
            var writer = ByteRecordWriter(magic: ReferenceCache.magic)
            writer.optionalString(nil)
            writer.string("home")
            writer.number(1)
            writer.string("digest-u-a")
            writer.lengthPrefixed { record in
                record.number(1)
                record.number(999)
            }
            writer.number(0)
            try Data(writer.bytes).write(to: file)

            let graph = try await crawlKeeping(try space(links: true), in: file)
            #expect(edges(graph).contains("u-a link multilink u-b u-b"))
            let kept = try await crawlReading(try space(links: false), from: file)
            #expect(edges(kept) == edges(graph))
        }

        @Test("a cache file that is corrupt or truncated is ignored")
        func corrupt() async throws {
            let folder = try TemporaryFolder()
            let file = folder.path("references")
            _ = try await crawlKeeping(try space(links: true), in: file)
            let bytes = try Data(contentsOf: file)
            for broken in [bytes.dropLast(2), bytes.prefix(30), Data("[]".utf8)] {
                try Data(broken).write(to: file)
                let graph = try await crawlReading(try space(links: false), from: file)
                #expect(graph.edges.isEmpty)
            }
        }
    }
}
