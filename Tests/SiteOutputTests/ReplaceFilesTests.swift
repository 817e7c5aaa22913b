import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("Replacing files of a written site")
    struct ReplaceFilesTests {
        let workspace: TemporaryFolder
        let writer: SiteWriter

        init() throws {
            workspace = try TemporaryFolder()
            writer = SiteWriter(output: workspace.path("Output"), displayPath: "Output")
            _ = try writer.write([
                OutputFile(path: "index.html", text: "home"),
                OutputFile(path: "blog/post/index.html", text: "post"),
                OutputFile(path: "about/index.html", text: "about"),
            ])
        }

        private func bytes(_ path: String) throws -> Data {
            try Data(contentsOf: workspace.path("Output/" + path))
        }

        /// The entries under `.storysite/tmp`, or nil when it is not there.
        private func temporaryEntries() -> [String]? {
            try? FileManager.default.contentsOfDirectory(atPath: workspace.path("Output/.storysite/tmp").path)
        }

        @Test("replacing a file changes its bytes alone: the other files and the manifest stay byte for byte, and no temporary file is left")
        func replaceOne() throws {
            let manifest = try bytes(".storysite/manifest.json")
            let home = try bytes("index.html")
            let about = try bytes("about/index.html")
            try writer.replace([OutputFile(path: "blog/post/index.html", text: "post, edited")])
            #expect(try workspace.read("Output/blog/post/index.html") == "post, edited")
            #expect(try bytes("index.html") == home)
            #expect(try bytes("about/index.html") == about)
            #expect(try bytes(".storysite/manifest.json") == manifest)
            #expect(temporaryEntries() ?? [] == [])
        }

        @Test("several files are replaced at once, and again")
        func replaceSeveral() throws {
            try writer.replace([OutputFile(path: "index.html", text: "home 2"), OutputFile(path: "about/index.html", text: "about 2")])
            try writer.replace([OutputFile(path: "index.html", text: "home 3")])
            #expect(try workspace.read("Output/index.html") == "home 3")
            #expect(try workspace.read("Output/about/index.html") == "about 2")
            #expect(try workspace.read("Output/blog/post/index.html") == "post")
            #expect(temporaryEntries() ?? [] == [])
        }

        @Test("the next write after a replacement writes the replaced file again and keeps the others")
        func writeAfterReplace() throws {
            try writer.replace([OutputFile(path: "index.html", text: "home 2")])
            let summary = try writer.write([
                OutputFile(path: "index.html", text: "home"),
                OutputFile(path: "blog/post/index.html", text: "post"),
                OutputFile(path: "about/index.html", text: "about"),
            ])
            #expect(summary.written == 1)
            #expect(summary.removed == 0)
            #expect(try workspace.read("Output/index.html") == "home")
        }

        @Test("a path that is not there, or that is unsafe, throws an OutputError and creates nothing",
              arguments: ["missing/index.html", "blog/index.html", "../escape.html"])
        func notThere(path: String) throws {
            let manifest = try bytes(".storysite/manifest.json")
            #expect(throws: OutputError.self) { try writer.replace([OutputFile(path: path, text: "x")]) }
            #expect(!workspace.exists("Output/" + path))
            #expect(!workspace.exists("escape.html"))
            #expect(try bytes(".storysite/manifest.json") == manifest)
            #expect(temporaryEntries() ?? [] == [])
        }
    }
}
