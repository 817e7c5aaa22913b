import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("Staging pages as they are rendered")
    struct StagingFolderTests {
        let workspace: TemporaryFolder
        let writer: SiteWriter

        init() throws {
            workspace = try TemporaryFolder()
            writer = SiteWriter(output: workspace.path("Output"), displayPath: "Output")
        }

        /// What is beside the output folder, which a write leaves as it found it.
        private var siblings: [String] {
            get throws { try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).sorted() }
        }

        @Test("pages staged before the write are in the output after it, with their manifest entries, and no longer held in memory")
        func stagedPagesLand() throws {
            let staging = try #require(StagingFolder(for: writer))
            let page = OutputFile(path: "blog/post/index.html", text: "post")
            let staged = staging.put(page)
            #expect(staged.isStaged && staged.contents.isEmpty)
            #expect(staged.path == page.path && staged.hash == page.hash && staged.size == 4)

            // Its folder's parent is made already: only its own folder is missing.
            let sibling = staging.put(OutputFile(path: "blog/other/index.html", text: "other"))
            #expect(sibling.isStaged)

            let written = try writer.write(
                [staging.put(OutputFile(path: "index.html", text: "home")), staged, sibling, OutputFile(path: "sitemap.xml", text: "<urlset/>")],
                over: writer.readPreviousOutput(), staged: staging)
            #expect(written.summary == .init(written: 4, unchanged: 0, removed: 0))
            #expect(try workspace.read("Output/blog/post/index.html") == "post")
            #expect(try workspace.read("Output/blog/other/index.html") == "other")
            #expect(try workspace.read("Output/index.html") == "home")
            #expect(try workspace.read("Output/sitemap.xml") == "<urlset/>")
            let manifest = try #require(try Manifest.read(in: workspace.path("Output")))
            let entry = try #require(manifest.files["blog/post/index.html"])
            #expect(entry.hash == page.hash && entry.size == 4)
            #expect(entry.modified == FileStatus(path: workspace.path("Output/blog/post/index.html").path)?.modified)
            #expect(try siblings == ["Output"])
        }

        @Test("a write refused after pages were staged discards the staging folder and leaves the output as it was")
        func refusedWriteDiscards() throws {
            _ = try writer.write([OutputFile(path: "index.html", text: "one")])
            try workspace.write("Output/notes.txt", "mine")
            let previous = writer.readPreviousOutput()
            let staging = try #require(StagingFolder(for: writer))
            let staged = staging.put(OutputFile(path: "index.html", text: "two"))
            #expect(throws: OutputError.self) { try writer.write([staged], over: previous, staged: staging) }
            #expect(try workspace.read("Output/index.html") == "one")
            #expect(try workspace.read("Output/notes.txt") == "mine")
            #expect(try siblings == ["Output"])
        }

        @Test("a page that cannot be staged stops the write with its reason, and nothing is left behind")
        func unstageablePage() throws {
            let staging = try #require(StagingFolder(for: writer))
            // A file where the second page needs a folder.
            let blocking = staging.put(OutputFile(path: "a", text: "a file"))
            let page = staging.put(OutputFile(path: "a/index.html", text: "page"))
            #expect(blocking.isStaged && !page.isStaged && page.contents == Data("page".utf8))
            var message = ""
            do throws(OutputError) {
                _ = try writer.write([page], over: writer.readPreviousOutput(), staged: staging)
            } catch {
                message = error.message
            }
            #expect(message.hasPrefix("could not write the new site: ") && message.contains("a/index.html"), "\(message)")
            #expect(!workspace.exists("Output"))
            #expect(try siblings.isEmpty)
        }

        @Test("opening the staging folder clears what a killed build left in it, and a path storysite would not write is left to the write to refuse")
        func leftoversAndUnsafePaths() throws {
            try workspace.write(".Output.storysite-staging/old/index.html", "half")
            let staging = try #require(StagingFolder(for: writer))
            #expect(!workspace.exists(".Output.storysite-staging/old"))
            let unsafe = staging.put(OutputFile(path: "../escape.html", text: "x"))
            #expect(!unsafe.isStaged)
            #expect(!workspace.exists("escape.html") && !workspace.exists(".Output.storysite-staging/escape.html"))
            #expect(throws: OutputError.self) { try writer.write([unsafe], over: writer.readPreviousOutput(), staged: staging) }
            #expect(try siblings.isEmpty)
        }
    }
}
