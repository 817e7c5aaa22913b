import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("Deciding where rendered pages go")
    struct PageStagingTests {
        let workspace: TemporaryFolder
        let writer: SiteWriter

        init() throws {
            workspace = try TemporaryFolder()
            writer = SiteWriter(output: workspace.path("Output"), displayPath: "Output")
        }

        /// The inode of the file at `path` in the workspace: the same file while it is not written again.
        private func inode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: workspace.path(path).path)[.systemFileNumber] as? Int
        }

        /// Twenty pages, `page-0/index.html` to `page-19/index.html`, with `text` in each.
        private func pages(_ text: String) -> [OutputFile] {
            (0..<20).map { OutputFile(path: "page-\($0)/index.html", text: "\(text) \($0)") }
        }

        @Test("with no previous build, every page goes to the staging folder from the first")
        func firstBuildStagesAll() throws {
            let staging = try #require(PageStaging(for: writer, over: writer.readPreviousOutput()))
            #expect(staging.staged == nil)
            let page = staging.put(OutputFile(path: "index.html", text: "home"))
            #expect(page.isStaged && page.contents.isEmpty)
            #expect(staging.staged != nil && workspace.exists(".Output.storysite-staging/index.html"))
        }

        @Test("a rebuild holds as many changed pages as a write in place takes, stages those after, and the write replaces the folder with both")
        func rebuildStagesPastTheLimit() throws {
            _ = try writer.write(pages("old"))
            let previous = writer.readPreviousOutput()
            let staging = try #require(PageStaging(for: writer, over: previous))
            // A tenth of twenty files may change in place: two pages are held, the third is staged.
            var changed = pages("new").map(staging.put)
            #expect(changed.prefix(2).allSatisfy { !$0.isStaged && !$0.contents.isEmpty })
            #expect(changed.dropFirst(2).allSatisfy { $0.isStaged })
            #expect(try workspace.read("Output/page-5/index.html") == "old 5", "the output is untouched until the write")
            // The held pages go to the staging folder too, once the write is known to replace the folder.
            changed = changed.map(staging.putHeld)
            #expect(changed.allSatisfy { $0.isStaged && $0.contents.isEmpty })
            #expect(try workspace.read(".Output.storysite-staging/page-1/index.html") == "new 1")

            let written = try writer.write(changed, over: previous, staged: staging.staged)
            #expect(written.summary == .init(written: 20, unchanged: 0, removed: 0))
            for index in [0, 1, 2, 19] {
                #expect(try workspace.read("Output/page-\(index)/index.html") == "new \(index)")
            }
            #expect(!workspace.exists(".Output.storysite-staging"))
        }

        @Test("a rebuild that changes no more pages than a write in place takes stages none, and the write updates the folder in place")
        func fewChangesStayInMemory() throws {
            _ = try writer.write(pages("old"))
            let unchanged = try inode("Output/page-9/index.html")
            let previous = writer.readPreviousOutput()
            let staging = try #require(PageStaging(for: writer, over: previous))
            let files = pages("old").enumerated().map { index, page in
                index < 2 ? staging.put(OutputFile(path: page.path, text: "new \(index)")) : page
            }
            #expect(staging.staged == nil && !files.contains { $0.isStaged })
            // With no staging folder, a held page stays held.
            #expect(files.map(staging.putHeld).allSatisfy { !$0.isStaged && !$0.contents.isEmpty })
            let written = try writer.write(files, over: previous, staged: staging.staged)
            #expect(written.summary == .init(written: 2, unchanged: 18, removed: 0))
            #expect(try workspace.read("Output/page-1/index.html") == "new 1")
            #expect(try inode("Output/page-9/index.html") == unchanged, "updated in place, the unchanged file is the same file")
        }

        @Test("an output folder the write will refuse gets no staging folder")
        func refusedFolderStagesNothing() throws {
            _ = try writer.write(pages("old"))
            try workspace.write("Output/notes.txt", "mine")
            #expect(PageStaging(for: writer, over: writer.readPreviousOutput()) == nil)
            #expect(!workspace.exists(".Output.storysite-staging"))
        }
    }
}
