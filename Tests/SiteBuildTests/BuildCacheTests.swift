import Foundation
import Testing
import TestSupport
@testable import SiteBuild

extension SiteBuildTests {
    @Suite("The build cache's page records")
    struct BuildCacheTests {
        /// A record for `page` with fields long enough that a few hundred records make runs of the
        /// file larger than a writer copies into its own bytes.
        static func record(_ page: Int, round: Int) -> BuildCache.Page {
            BuildCache.Page(
                fingerprint: String(format: "%016x", page &* 7919 &+ round), path: "pages/page-\(page)/index.html",
                hash: String(repeating: "\(round)", count: 64), missingComponents: page % 50 == 0 ? ["gallery"] : [],
                warnings: page % 70 == 0 ? [BuildCache.Warning(location: "page-\(page): body.0", message: "round \(round)")] : [])
        }

        static func cache(_ pages: [String: BuildCache.Page]) -> BuildCache {
            BuildCache(key: "key", content: "content", output: "output", storyCount: pages.count, pageCount: pages.count, fileCount: pages.count,
                       warnings: [], pages: pages)
        }

        @Test("page records keep the states of the content they were made of and of the readers they go with; the readers they name are read with them, and a cache that names none removes them")
        func contentStates() throws {
            let output = try TemporaryFolder()
            let graph = try ContentReadersTests.graph()
            let readers = KeptReaders(ContentReadersTests.fingerprintsAndReaders(graph).readers, of: graph, state: "noted")
            var cache = Self.cache(["uuid-1": Self.record(1, round: 0)])
            cache.contentState = "now"
            cache.readersState = "noted"
            try cache.write(in: output.url, readers: readers)
            let read = try #require(BuildCache.read(in: output.url, key: "key")).readingPages(in: output.url)
            #expect(read.contentState == "now" && read.readersState == "noted")
            #expect(read.readers?.readers == readers.readers)

            // Records continued by a build that kept the readers (a content edit's) go on naming them.
            cache.contentState = "later"
            try cache.write(in: output.url, continuing: read.pagesRead, renewed: ["uuid-1"])
            let continued = try #require(BuildCache.read(in: output.url, key: "key")).readingPages(in: output.url)
            #expect(continued.contentState == "later" && continued.readers?.readers == readers.readers)

            // Records that name other readers find none; records that name none remove them.
            cache.readersState = "other"
            try cache.write(in: output.url)
            #expect(try #require(BuildCache.read(in: output.url, key: "key")).readingPages(in: output.url).readers == nil)
            #expect(output.exists(KeptReaders.relativePath))
            cache.readersState = nil
            cache.contentState = nil
            try cache.write(in: output.url)
            #expect(!output.exists(KeptReaders.relativePath))
            let none = try #require(BuildCache.read(in: output.url, key: "key")).readingPages(in: output.url)
            #expect(none.contentState == nil && none.readersState == nil && none.pages == cache.pages)
        }

        @Test("page records written again over the file read, a few of them renewed, keep every page and read back as written")
        func continuedRecords() throws {
            let output = try TemporaryFolder()
            var pages = Dictionary(uniqueKeysWithValues: (0..<3000).map { (String(format: "uuid-%05d", $0), Self.record($0, round: 0)) })
            try Self.cache(pages).write(in: output.url)
            for (round, renewed) in [[0, 1500, 2999], [1, 2, 3], [], [2998, 700]].enumerated() {
                let read = try #require(BuildCache.read(in: output.url, key: "key")).readingPages(in: output.url)
                #expect(read.pages == pages, "round \(round)")
                let continued = try #require(read.pagesRead, "round \(round)")
                var keys = Set<String>()
                for page in renewed {
                    let key = String(format: "uuid-%05d", page)
                    pages[key] = Self.record(page, round: round + 1)
                    keys.insert(key)
                }
                let records = try #require(Self.cache(pages).pageRecords(continuing: continued, renewed: keys), "round \(round)")
                #expect(records.chunks.contains { if case .mapped = $0 { true } else { false } }, "round \(round): runs of the file read")
                try Self.cache(pages).write(in: output.url, continuing: continued, renewed: keys)
            }
            let last = try #require(BuildCache.read(in: output.url, key: "key")).readingPages(in: output.url)
            #expect(last.pages == pages)

            // Pages that are not the file's are written whole.
            let continued = try #require(last.pagesRead)
            pages["uuid-new"] = Self.record(3000, round: 9)
            pages["uuid-00005"] = nil
            #expect(Self.cache(pages).pageRecords(continuing: continued, renewed: ["uuid-new"]) == nil)
            try Self.cache(pages).write(in: output.url, continuing: continued, renewed: ["uuid-new"])
            #expect(try #require(BuildCache.read(in: output.url, key: "key")).readingPages(in: output.url).pages == pages)
        }
    }
}
