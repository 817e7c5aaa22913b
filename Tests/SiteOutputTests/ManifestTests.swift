import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("The manifest of an output folder")
    struct ManifestTests {
        let workspace: TemporaryFolder

        init() throws {
            workspace = try TemporaryFolder()
        }

        private func write(_ text: String) throws {
            try workspace.write("Output/.storysite/manifest.json", text)
        }

        private func readProblem() -> String? {
            do {
                _ = try Manifest.read(in: workspace.path("Output"))
                return nil
            } catch {
                return error.reason
            }
        }

        @Test("reads back what it wrote, a path with quotes and nanosecond times included, as JSON a person can read")
        func roundTrip() throws {
            var manifest = Manifest()
            manifest.files["index.html"] = Manifest.Entry(size: 12, hash: "00ff00ff00ff00ff", modified: 1_796_218_491_997_351_685)
            manifest.files["say \"hi\"/index.html"] = Manifest.Entry(size: 0, hash: "0123456789abcdef", modified: 1)
            let text = String(decoding: manifest.encoded(), as: UTF8.self)
            #expect(text == """
                {
                  "files": {
                    "index.html": {
                      "hash": "00ff00ff00ff00ff",
                      "modified": "1796218491997351685",
                      "size": 12
                    },
                    "say \\"hi\\"/index.html": {
                      "hash": "0123456789abcdef",
                      "modified": "1",
                      "size": 0
                    }
                  },
                  "generator": "storysite"
                }
                """)
            try FileManager.default.createDirectory(at: workspace.path("Output/.storysite"), withIntermediateDirectories: true)
            try manifest.write(to: workspace.path("Output/.storysite/manifest.json"))
            #expect(try Manifest.read(in: workspace.path("Output")) == manifest)
        }

        @Test("an empty manifest reads back as empty")
        func empty() throws {
            try write(String(decoding: Manifest().encoded(), as: UTF8.self))
            #expect(try Manifest.read(in: workspace.path("Output")) == Manifest())
            #expect(try Manifest.read(in: workspace.path("Elsewhere")) == nil)
        }

        @Test("a modification time written as a number, as earlier builds wrote it, reads rounded")
        func numericTime() throws {
            try write(#"{"generator": "storysite", "files": {"a.html": {"size": 1, "hash": "h", "modified": 12.6}}}"#)
            #expect(try Manifest.read(in: workspace.path("Output"))?.files["a.html"]?.modified == 13)
        }

        @Test(
            "a manifest that is not what storysite writes says what is wrong with it",
            arguments: [
                (#"[]"#, "expected an object with 'generator' and 'files'"),
                (#"{"generator": "storysite", "files": []}"#, "expected an object with 'generator' and 'files'"),
                (#"{"files": {}}"#, "expected an object with 'generator' and 'files'"),
                (#"{"generator": "storysite", "files": {"a.html": {"size": 1, "hash": "h"}}}"#,
                 "the entry of 'a.html' needs a size, a hash and a modification time"),
                (#"{"generator": "storysite", "files": {"a.html": {"size": 1.5, "hash": "h", "modified": "1"}}}"#,
                 "the entry of 'a.html' needs a size, a hash and a modification time"),
                (#"{"generator": "storysite", "files": {"a.html": "x"}}"#,
                 "the entry of 'a.html' needs a size, a hash and a modification time"),
                (#"{"generator": "storysite", "files": {"../x": {"size": 1, "hash": "h", "modified": "1"}}}"#,
                 "it lists '../x', which storysite would never write"),
                (#"{"generator": "storysite", "files": {"a": {"size": 1, "hash": "h", "modified": "1"}, "a/b": {"size": 1, "hash": "h", "modified": "1"}}}"#,
                 "it lists both 'a' and 'a/b', which storysite would never write"),
            ])
        func unreadable(text: String, reason: String) throws {
            try write(text)
            let problem = try #require(readProblem())
            #expect(problem.hasPrefix(reason), "\(problem)")
        }
    }
}
