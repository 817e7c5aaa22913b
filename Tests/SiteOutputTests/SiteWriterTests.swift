import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("Writing the site")
    struct SiteWriterTests {
        let workspace: TemporaryFolder
        let writer: SiteWriter

        init() throws {
            workspace = try TemporaryFolder()
            writer = SiteWriter(output: workspace.path("Output"), displayPath: "Output")
        }

        private func modificationDate(_ path: String) throws -> Date {
            let attributes = try FileManager.default.attributesOfItem(atPath: workspace.path(path).path)
            return try #require(attributes[.modificationDate] as? Date)
        }

        @Test("a first build writes every file and a manifest")
        func firstBuild() throws {
            let summary = try writer.write([
                OutputFile(path: "index.html", text: "home"),
                OutputFile(path: "blog/post/index.html", text: "post"),
            ])
            #expect(summary == .init(written: 2, unchanged: 0, removed: 0))
            #expect(try workspace.read("Output/index.html") == "home")
            #expect(try workspace.read("Output/blog/post/index.html") == "post")
            #expect(workspace.exists("Output/.storysite/manifest.json"))
        }

        @Test("a write that replaces the folder gives the fingerprint a listing of it gives, and drops the listing record")
        func replacingWriteFingerprint() throws {
            let output = workspace.path("Output")
            let first = try writer.write(
                [OutputFile(path: "index.html", text: "home"), OutputFile(path: "a/index.html", text: "a"),
                 OutputFile(path: "b/index.html", text: "b"), OutputFile(path: ".well-known/security.txt", text: "contact")],
                over: writer.readPreviousOutput())
            #expect(first.fingerprint == FolderFingerprint.of(output, skipRootDotfiles: true))
            try workspace.write("Output/.git/HEAD", "ref: main")
            // The next build's check of the output folder records its listing.
            _ = writer.currentFingerprint()
            #expect(ListingRecord.read(in: output) != nil)

            // Kept, carried over unchanged, written, staged and removed files, in new folders too,
            // and names that sort before a folder's name only as whole paths (`a-b/` and `a/`).
            let staging = try #require(StagingFolder(for: writer))
            let staged = staging.put(OutputFile(path: "blog/2026/post/index.html", text: "post"))
            let second = try writer.write(
                [OutputFile(path: "index.html", text: "home"), OutputFile(path: "a/index.html", text: "a, edited"), staged,
                 OutputFile(path: ".well-known/security.txt", text: "contact"), OutputFile(path: "a-b/index.html", text: "a-b"),
                 OutputFile(path: "blog.html", text: "blog")],
                over: writer.readPreviousOutput(), staged: staging)
            #expect(second.summary == .init(written: 4, unchanged: 2, removed: 1))
            #expect(second.fingerprint == FolderFingerprint.of(output, skipRootDotfiles: true))
            // Its folders were replaced: the next listing reads them all, and records them again.
            #expect(ListingRecord.read(in: output) == nil)
            #expect(second.fingerprint == writer.currentFingerprint())
            #expect(try workspace.read("Output/.git/HEAD") == "ref: main")
        }

        @Test("a rebuild with no change writes nothing and keeps modification times")
        func noChangeRebuild() throws {
            let files = [OutputFile(path: "index.html", text: "home"), OutputFile(path: "a/index.html", text: "a")]
            _ = try writer.write(files)
            let before = try modificationDate("Output/a/index.html")
            let manifestBefore = try workspace.read("Output/.storysite/manifest.json")
            Thread.sleep(forTimeInterval: 0.02)
            let summary = try writer.write(files)
            #expect(summary == .init(written: 0, unchanged: 2, removed: 0))
            #expect(try modificationDate("Output/a/index.html") == before)
            #expect(try workspace.read("Output/.storysite/manifest.json") == manifestBefore)
        }

        @Test("a kept file edited while the build ran stays as edited, and the next build finds it changed")
        func keptFileEditedDuringTheBuild() throws {
            let pages = (1...20).map { OutputFile(path: "p\($0)/index.html", text: "page \($0)") }
            _ = try writer.write(pages)
            // The build starts: every page is intact, all but the first are kept.
            let previous = writer.readPreviousOutput()
            let intact = previous.intactFiles()
            #expect(intact.count == 20)
            Thread.sleep(forTimeInterval: 0.02)
            try workspace.write("Output/p2/index.html", "edited by hand")
            let written = try writer.write(
                [OutputFile(path: "p1/index.html", text: "page 1, new")], keeping: Set(intact.keys).subtracting(["p1/index.html"]),
                over: previous)
            #expect(written.summary == .init(written: 1, unchanged: 19, removed: 0))
            #expect(try workspace.read("Output/p2/index.html") == "edited by hand")
            #expect(try workspace.read("Output/p1/index.html") == "page 1, new")
            let next = writer.readPreviousOutput().intactFiles()
            #expect(next["p2/index.html"] == nil && next.count == 19)
        }

        @Test("the manifest keeps modification times to the nanosecond, and reads the numbers earlier builds wrote")
        func manifestTimes() throws {
            let files = [OutputFile(path: "index.html", text: "home"), OutputFile(path: "a/index.html", text: "a")]
            _ = try writer.write(files)
            let manifest = try #require(try Manifest.read(in: workspace.path("Output")))
            #expect(manifest.files["a/index.html"]?.modified == FileStatus(path: workspace.path("Output/a/index.html").path)?.modified)

            // An earlier build wrote the times as JSON numbers, which may lose their last digits
            // when read: such files are written again once, and nothing is refused.
            let legacy = try workspace.read("Output/.storysite/manifest.json")
                .replacingOccurrences(of: #""modified" : "(\d+)""#, with: "\"modified\" : $1", options: .regularExpression)
                .replacingOccurrences(of: #""modified": "(\d+)""#, with: "\"modified\": $1", options: .regularExpression)
            #expect(!legacy.contains(#""modified": ""#))
            try workspace.write("Output/.storysite/manifest.json", legacy)
            let upgraded = try writer.write(files)
            #expect(upgraded.written + upgraded.unchanged == 2 && upgraded.removed == 0)
            #expect(try writer.write(files) == .init(written: 0, unchanged: 2, removed: 0))
        }

        @Test("a rebuild rewrites changed files, keeps unchanged ones and removes pages that are gone")
        func partialRebuild() throws {
            _ = try writer.write([
                OutputFile(path: "index.html", text: "home"),
                OutputFile(path: "old/index.html", text: "old"),
                OutputFile(path: "same/index.html", text: "same"),
            ])
            let sameBefore = try modificationDate("Output/same/index.html")
            Thread.sleep(forTimeInterval: 0.02)
            let summary = try writer.write([
                OutputFile(path: "index.html", text: "home, edited"),
                OutputFile(path: "same/index.html", text: "same"),
            ])
            #expect(summary == .init(written: 1, unchanged: 1, removed: 1))
            #expect(try workspace.read("Output/index.html") == "home, edited")
            #expect(!workspace.exists("Output/old"))
            #expect(try modificationDate("Output/same/index.html") == sameBefore)
        }

        @Test("a file edited by hand in the output is rewritten even when the build did not change it")
        func handEditedFileIsRestored() throws {
            let files = [OutputFile(path: "index.html", text: "home")]
            _ = try writer.write(files)
            try workspace.write("Output/index.html", "tampered")
            let summary = try writer.write(files)
            #expect(summary.written == 1)
            #expect(try workspace.read("Output/index.html") == "home")
        }

        @Test("a folder holding files storysite did not write is refused and left alone")
        func foreignFolderIsRefused() throws {
            try workspace.write("Output/notes.txt", "mine")
            try workspace.write("Output/photos/cat.jpg", "meow")
            #expect {
                try writer.write([OutputFile(path: "index.html", text: "home")])
            } throws: { error in
                (error as? OutputError)?.description
                    == "Output: error: the output folder holds files storysite did not write ('notes.txt', 'photos/cat.jpg'); choose an empty or new folder, or remove them"
            }
            #expect(try workspace.read("Output/notes.txt") == "mine")
            #expect(!workspace.exists("Output/index.html"))
        }

        @Test("a file added by hand next to a built site makes the next build refuse")
        func foreignFileAfterBuild() throws {
            _ = try writer.write([OutputFile(path: "index.html", text: "home")])
            try workspace.write("Output/stray.html", "stray")
            #expect(throws: OutputError.self) { try writer.write([OutputFile(path: "index.html", text: "home")]) }
            #expect(try workspace.read("Output/stray.html") == "stray")
        }

        @Test("dotfiles at the top of the output folder are the user's and survive builds")
        func dotfilesSurvive() throws {
            try workspace.write("Output/.gitkeep", "")
            try workspace.write("Output/.git/HEAD", "ref: refs/heads/gh-pages")
            _ = try writer.write([OutputFile(path: "index.html", text: "one")])
            _ = try writer.write([OutputFile(path: "index.html", text: "two")])
            #expect(workspace.exists("Output/.gitkeep"))
            #expect(try workspace.read("Output/.git/HEAD") == "ref: refs/heads/gh-pages")
            #expect(try workspace.read("Output/index.html") == "two")
        }

        @Test("a build that fails while writing leaves the previous output exactly as it was")
        func failedWriteKeepsPreviousOutput() throws {
            _ = try writer.write([OutputFile(path: "index.html", text: "good")])
            // A file and a folder of the same name cannot both exist: the write fails midway.
            #expect(throws: OutputError.self) {
                try writer.write([
                    OutputFile(path: "index.html", text: "new"),
                    OutputFile(path: "a", text: "file"),
                    OutputFile(path: "a/index.html", text: "inside a file"),
                ])
            }
            #expect(try workspace.read("Output/index.html") == "good")
            #expect(!workspace.exists("Output/a"))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.url.path)
            #expect(leftovers == ["Output"])
        }

        @Test("a build killed between the two renames of the swap gets the previous site, .git included, back")
        func recoversFromKillBeforeSwap() throws {
            try workspace.write("Output/.git/HEAD", "ref: refs/heads/gh-pages")
            _ = try writer.write([OutputFile(path: "index.html", text: "one")])
            // The state a kill leaves after `Output` became the retired folder and before staging took its place.
            try FileManager.default.moveItem(at: workspace.path("Output"), to: workspace.path(".Output.storysite-previous"))
            try workspace.write(".Output.storysite-staging/index.html", "half")
            _ = try writer.write([OutputFile(path: "index.html", text: "two")])
            #expect(try workspace.read("Output/index.html") == "two")
            #expect(try workspace.read("Output/.git/HEAD") == "ref: refs/heads/gh-pages")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path) == ["Output"])
        }

        @Test("a build killed after the swap but before the dotfiles moved across leaves them to the next build")
        func recoversFromKillAfterSwap() throws {
            _ = try writer.write([OutputFile(path: "index.html", text: "one")])
            // The state a kill leaves after the swap: the new site in place, the user's .git still in the retired folder.
            try workspace.write(".Output.storysite-previous/.git/HEAD", "ref: refs/heads/gh-pages")
            try workspace.write(".Output.storysite-previous/index.html", "older")
            _ = try writer.write([OutputFile(path: "index.html", text: "two")])
            #expect(try workspace.read("Output/index.html") == "two")
            #expect(try workspace.read("Output/.git/HEAD") == "ref: refs/heads/gh-pages")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path) == ["Output"])
        }

        @Test("an unreadable manifest is reported as such, and nothing is touched")
        func unreadableManifest() throws {
            _ = try writer.write([OutputFile(path: "index.html", text: "one")])
            try workspace.write("Output/.storysite/manifest.json", "{ not json")
            #expect {
                try writer.write([OutputFile(path: "index.html", text: "two")])
            } throws: { error in
                (error as? OutputError)?.message.hasPrefix(
                    ".storysite/manifest.json is unreadable (1:3: expected a string key in object), so storysite cannot tell the files it wrote from yours") == true
            }
            #expect(try workspace.read("Output/index.html") == "one")
        }

        @Test("an output folder that is a symbolic link is written where the link points, and stays a link")
        func symlinkedOutput() throws {
            try FileManager.default.createDirectory(at: workspace.path("real"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: workspace.path("Output"), withDestinationURL: workspace.path("real"))
            let writer = SiteWriter(output: workspace.path("Output"), displayPath: "Output")
            _ = try writer.write([OutputFile(path: "index.html", text: "one")])
            _ = try writer.write([OutputFile(path: "index.html", text: "two")])
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: workspace.path("Output").path) == workspace.path("real").path)
            #expect(try workspace.read("real/index.html") == "two")
        }

        @Test("files to keep that the last build did not write are an error naming the first, and nothing is touched")
        func keptButNeverWritten() throws {
            _ = try writer.write([OutputFile(path: "index.html", text: "one")])
            #expect {
                try writer.write([OutputFile(path: "index.html", text: "two")], keeping: ["b/index.html", "a/index.html"])
            } throws: { error in
                (error as? OutputError)?.message == "'a/index.html' was to be kept, but the last build did not write it"
            }
            #expect(try workspace.read("Output/index.html") == "one")
        }

        @Test("a new file below a kept one is an error naming both, and nothing is touched")
        func newFileBelowKeptFile() throws {
            _ = try writer.write([OutputFile(path: "a/index.html", text: "a"), OutputFile(path: "index.html", text: "one")])
            #expect {
                try writer.write(
                    [OutputFile(path: "index.html", text: "two"), OutputFile(path: "a/index.html/x.html", text: "x")], keeping: ["a/index.html"])
            } throws: { error in
                (error as? OutputError)?.description
                    == "a/index.html/x.html: error: cannot be written: 'a/index.html' is a file of the site, so it cannot also be a folder"
            }
            #expect(try workspace.read("Output/index.html") == "one")
        }

        @Test("two files with one path are an error")
        func duplicatePaths() {
            #expect {
                try writer.write([OutputFile(path: "x/index.html", text: "1"), OutputFile(path: "x/index.html", text: "2")])
            } throws: { error in
                (error as? OutputError)?.description == "Output: error: two files map to 'x/index.html'"
            }
        }
    }
}
