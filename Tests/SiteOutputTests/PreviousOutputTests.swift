import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("The output folder as a build finds it")
    struct PreviousOutputTests {
        let workspace: TemporaryFolder
        let writer: SiteWriter

        init() throws {
            workspace = try TemporaryFolder()
            writer = SiteWriter(output: workspace.path("Output"), displayPath: "Output")
        }

        /// Forty pages, `page-0/index.html` to `page-39/index.html`, the first as `text`: up to
        /// four changes to them are written in place.
        static func pages(first text: String = "page 0") -> [OutputFile] {
            [OutputFile(path: "page-0/index.html", text: text)] + (1..<40).map { OutputFile(path: "page-\($0)/index.html", text: "page \($0)") }
        }

        private func fingerprintOfFolder() -> String? {
            FolderFingerprint.of(workspace.path("Output"), skipRootDotfiles: true)
        }

        private func inode(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: workspace.path(path).path)[.systemFileNumber] as? Int)
        }

        @Test("after a write in place, the fingerprint it gives is what listing the folder again gives")
        func refreshedFingerprint() throws {
            _ = try writer.write(Self.pages())
            try FileManager.default.createDirectory(at: workspace.path("Output/.git"), withIntermediateDirectories: true)
            let folderBefore = try inode("Output/page-5")
            Thread.sleep(forTimeInterval: 0.02)

            // A page changed, one gone with its folder, one new two folders deep.
            let next = Array(Self.pages(first: "changed").dropLast()) + [OutputFile(path: "new/deep/index.html", text: "new")]
            let written = try writer.write(next, over: writer.readPreviousOutput())

            #expect(written.summary == .init(written: 2, unchanged: 38, removed: 1))
            #expect(try inode("Output/page-5") == folderBefore, "written in place, not by replacing the folder")
            #expect(!workspace.exists("Output/page-39"))
            let fingerprint = try #require(written.fingerprint)
            #expect(fingerprint == fingerprintOfFolder())
        }

        @Test("a write of many files gives the fingerprint of the new folder, and a write of none the one found")
        func fingerprintOfOtherWrites() throws {
            let first = try writer.write(Self.pages(), over: writer.readPreviousOutput())
            let fingerprint = try #require(first.fingerprint)
            #expect(fingerprint == fingerprintOfFolder())
            let unchanged = try writer.write(Self.pages(), over: writer.readPreviousOutput())
            #expect(unchanged.summary.written == 0)
            #expect(unchanged.fingerprint == first.fingerprint)
        }

        @Test("the intact files are those still as the last build wrote them, with their hashes")
        func intactFiles() throws {
            _ = try writer.write([
                OutputFile(path: "index.html", text: "home"), OutputFile(path: "a/index.html", text: "a"),
                OutputFile(path: "b/index.html", text: "b"),
            ])
            try workspace.write("Output/a/index.html", "edited by hand")
            try FileManager.default.removeItem(at: workspace.path("Output/b/index.html"))

            let intact = writer.readPreviousOutput().intactFiles()
            #expect(intact == ["index.html": OutputFile(path: "index.html", text: "home").hash])
        }

        @Test("a file put into the folder is named when the folder is read, and stops the write")
        func foreignFileFound() throws {
            _ = try writer.write(Self.pages())
            try workspace.write("Output/page-3/notes.txt", "mine")
            let previous = writer.readPreviousOutput()
            let problem = try #require(previous.problem)
            #expect(problem.message.contains("files storysite did not write ('page-3/notes.txt')"))
            #expect(throws: problem) { try writer.write(Self.pages(first: "changed"), over: previous) }
            #expect(try workspace.read("Output/page-3/notes.txt") == "mine")
            #expect(try workspace.read("Output/page-0/index.html") == "page 0")
        }

        @Test("a file put into the folder during a build stops a write that replaces the folder")
        func foreignFileDuringFullWrite() throws {
            _ = try writer.write(Self.pages())
            let previous = writer.readPreviousOutput()
            try workspace.write("Output/notes.txt", "mine")
            let everyPageChanged = (0..<40).map { OutputFile(path: "page-\($0)/index.html", text: "new \($0)") }
            #expect(throws: OutputError.self) { try writer.write(everyPageChanged, over: previous) }
            #expect(try workspace.read("Output/notes.txt") == "mine")
            #expect(try workspace.read("Output/page-0/index.html") == "page 0")
        }

        @Test("a file put into the folder during a build of few changes stays, and the next build names it")
        func foreignFileDuringWriteInPlace() throws {
            _ = try writer.write(Self.pages())
            let previous = writer.readPreviousOutput()
            try workspace.write("Output/notes.txt", "mine")
            let written = try writer.write(Self.pages(first: "changed"), over: previous)
            #expect(try workspace.read("Output/notes.txt") == "mine")
            #expect(try workspace.read("Output/page-0/index.html") == "changed")
            #expect(written.fingerprint != fingerprintOfFolder(), "so the next build does not take the folder for unchanged")
            #expect(writer.readPreviousOutput().problem?.message.contains("'notes.txt'") == true)
        }
    }
}
