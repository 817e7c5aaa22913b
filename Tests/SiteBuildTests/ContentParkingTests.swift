import Foundation
import SiteOutput
import StoryModel
import Testing
import TestSupport
@testable import SiteBuild

extension SiteBuildTests {
    /// A build of a large content folder keeps its stories' content in a file while it runs
    /// (``SiteGenerator/contentStore``): the site it makes is the same.
    @Suite("A large content folder's content waits in a file")
    struct ContentParkingTests {
        /// The demo site's settings, but for its collection: the demo's content and templates,
        /// both languages (whose translations are made from the parked content), its listings.
        private static func demoSettings(output: URL) -> SiteSettings {
            var settings = SiteSettings(
                output: output.path, baseURL: "https://kestrelstudio.example/",
                listings: ["blog/": ListingSettings(perPage: 5, feed: true, summaryField: "content.excerpt"), "tags/": .standard],
                languages: ["en", "de"])
            settings.jobs = 2
            return settings
        }

        /// The demo site's files, its content kept in `store` when there is one.
        private static func build(parkingIn store: TapeStore?, output: URL) async throws -> [String: Data] {
            let root = SharedFixtures.repositoryRoot
            var generator = SiteGenerator(settings: demoSettings(output: output), workingDirectory: root)
            let listed = try #require(ListedFolder(root.appendingPathComponent("Content"), jobs: 2))
            generator.listedContent = listed
            generator.contentStore = store
            let built = await generator.generate()
            #expect(!built.hasErrors, "\(built.diagnostics)")
            return Dictionary(uniqueKeysWithValues: built.files.map { ($0.path, $0.contents) })
        }

        @Test("every page, feed and the sitemap of the demo site are the same, byte for byte, with its content parked")
        func sameSite() async throws {
            let folder = try TemporaryFolder()
            let output = folder.path("Output")
            let inMemory = try await Self.build(parkingIn: nil, output: output)
            let store = try #require(TapeStore.beside(output))
            let parked = try await Self.build(parkingIn: store, output: output)
            // The stories' tapes went to the store.
            #expect((store.keep(UnsafeRawBufferPointer(start: nil, count: 0))?.lowerBound ?? 0) > 10_000)
            #expect(inMemory.count > 40)
            #expect(Set(parked.keys) == Set(inMemory.keys))
            for (path, contents) in inMemory {
                #expect(parked[path] == contents, "\(path)")
            }
            // The store's file has no name: nothing is left beside the output folder.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        }

        @Test("a rebuild after a template edit, the content of its kept stories parked as their files are read again, writes what a full build writes")
        func rebuildParksKeptContent() async throws {
            let workspace = try TemporaryFolder()
            for item in ["Content", "Templates"] {
                try FileManager.default.copyItem(at: SharedFixtures.repositoryRoot.appendingPathComponent(item), to: workspace.path(item))
            }
            func build(into output: String, parkingAbove threshold: Int?) async -> IncrementalBuild.Outcome {
                var build = IncrementalBuild(
                    settings: Self.demoSettings(output: workspace.path(output)), workingDirectory: workspace.url, output: workspace.path(output))
                build.contentParkedAbove = threshold
                return await build.run()
            }
            let first = await build(into: "Output", parkingAbove: 0)
            #expect(first.diagnostics.allSatisfy { $0.severity != .error }, "\(first.diagnostics)")
            let layout = "Templates/layout.mustache"
            try workspace.write(layout, try workspace.read(layout).replacingOccurrences(of: "</body>", with: "<!-- edited --></body>"))
            let rebuilt = await build(into: "Output", parkingAbove: 0)
            #expect((rebuilt.summary?.written ?? 0) > 40)
            _ = await build(into: "Fresh", parkingAbove: nil)
            let incremental = try Self.files(in: workspace.path("Output")), full = try Self.files(in: workspace.path("Fresh"))
            #expect(incremental.keys.sorted() == full.keys.sorted())
            for (path, contents) in full where incremental[path] != contents {
                Issue.record("\(path) differs from a full build's")
            }
        }

        @Test("a build with no cache to reuse or of a large folder gives up huge pages as it starts; a rebuild that reuses one keeps them")
        func hugePagesOnlyForRebuilds() async throws {
            let workspace = try TemporaryFolder()
            for item in ["Content", "Templates"] {
                try FileManager.default.copyItem(at: SharedFixtures.repositoryRoot.appendingPathComponent(item), to: workspace.path(item))
            }
            func build(parkingAbove threshold: Int?) async throws -> Int {
                let calls = Locked(0)
                var build = IncrementalBuild(
                    settings: Self.demoSettings(output: workspace.path("Output")), workingDirectory: workspace.url, output: workspace.path("Output"))
                build.contentParkedAbove = threshold
                build.givesUpHugePages = { calls.withLock { $0 += 1 } }
                let outcome = await build.run()
                #expect(outcome.diagnostics.allSatisfy { $0.severity != .error }, "\(outcome.diagnostics)")
                #expect((outcome.summary?.written ?? 0) > 0)
                return calls.withLock { $0 }
            }
            var edits = 0
            func editStory() throws {
                edits += 1
                let about = try workspace.read("Content/about.json")
                try workspace.write("Content/about.json", about.replacingOccurrences(of: "calm software", with: "calm software \(edits)"))
            }
            #expect(try await build(parkingAbove: nil) == 1, "a first build")
            try editStory()
            #expect(try await build(parkingAbove: nil) == 0, "a rebuild of one story")
            try editStory()
            #expect(try await build(parkingAbove: 0) == 1, "a rebuild that parks its content")
            // A template edit changes the build's key: the cache is there, but nothing in it is reused.
            let layout = "Templates/layout.mustache"
            try workspace.write(layout, try workspace.read(layout).replacingOccurrences(of: "</body>", with: "<!-- edited --></body>"))
            #expect(try await build(parkingAbove: nil) == 1, "a rebuild after a template edit")
        }

        /// Whether the kernel says in `/proc/self/status` whether the process may have huge pages.
        private static let kernelReportsHugePages =
            (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8))?.contains("THP_enabled:") ?? false

        @Test("giving up huge pages shows in the process's status, as the kernel keeps it", .enabled(if: kernelReportsHugePages))
        func hugePagesGivenUp() throws {
            #expect(HugePages.giveUp())
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("THP_enabled:") })
            #expect(line.split(separator: "\t").last == "0")
        }

        /// The site's files in `folder`, by path: not the build's own records in `.storysite/`.
        private static func files(in folder: URL) throws -> [String: Data] {
            let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
            return try Dictionary(uniqueKeysWithValues: paths.filter { !$0.hasPrefix(".storysite") }.compactMap { path in
                let url = folder.appendingPathComponent(path)
                guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { return nil }
                return (path, try Data(contentsOf: url))
            })
        }

        @Test("a folder holding fewer bytes of story files than the threshold keeps its content in memory")
        func smallFolderStays() throws {
            let listed = try #require(ListedFolder(SharedFixtures.repositoryRoot.appendingPathComponent("Content"), jobs: 2))
            #expect(!SiteGenerator.parksContent(of: listed, above: SiteGenerator.contentKeptInMemory))
            #expect(SiteGenerator.parksContent(of: listed, above: 0))
            #expect(!SiteGenerator.parksContent(of: nil, above: 0))
            #expect(!SiteGenerator.parksContent(of: listed, above: nil))
        }
    }
}
