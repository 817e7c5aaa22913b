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

        @Test("a manifest read, changed and written again is written as one made anew of the same files: in the order of their paths' bytes")
        func writtenAgainInOrder() throws {
            var made = Manifest()
            for page in 0..<300 {
                made.files["p\(page)/index.html"] = Manifest.Entry(size: page, hash: String(format: "%016x", page), modified: Int64(page) * 1_000_003)
            }
            try FileManager.default.createDirectory(at: workspace.path("Output/.storysite"), withIntermediateDirectories: true)
            try made.write(to: workspace.path("Output/.storysite/manifest.json"))
            var read = try #require(try Manifest.read(in: workspace.path("Output")))
            #expect(read.encoded() == made.encoded(), "as read")
            for change in 0..<3 {
                let path = ["p7/index.html", "p150/index.html", "p299/index.html"][change]
                read.files[path]?.modified += 1
                made.files[path]?.modified += 1
                #expect(read.encoded() == made.encoded(), "an entry changed")
            }
            read.files["p42/index.html"] = nil
            read.files["a/index.html"] = Manifest.Entry(size: 1, hash: "0", modified: 1)
            made.files["p42/index.html"] = nil
            made.files["a/index.html"] = Manifest.Entry(size: 1, hash: "0", modified: 1)
            #expect(read.encoded() == made.encoded(), "one removed, one added: the same number of paths, others")

            // A manifest whose paths are out of order (written by hand) is written sorted.
            try write(#"{"files": {"b/index.html": {"hash": "1", "modified": "1", "size": 1}, "a/index.html": {"hash": "2", "modified": "2", "size": 2}}, "generator": "storysite"}"#)
            let unsorted = try #require(try Manifest.read(in: workspace.path("Output")))
            let text = String(decoding: unsorted.encoded(), as: UTF8.self)
            #expect(try #require(text.range(of: "a/index.html")).lowerBound < #require(text.range(of: "b/index.html")).lowerBound)
        }

        @Test("a manifest read and written again with entries changed, added and removed is the manifest changed, written anew")
        func writtenAgainChanged() throws {
            var made = Manifest()
            for page in 1..<200 {
                made.files["p\(page)/index.html"] = Manifest.Entry(size: page, hash: String(format: "%016x", page), modified: Int64(page) * 1_000_003)
            }
            made.files["caf\u{E9}/index.html"] = Manifest.Entry(size: 1, hash: "c", modified: 1)
            try FileManager.default.createDirectory(at: workspace.path("Output/.storysite"), withIntermediateDirectories: true)
            try made.write(to: workspace.path("Output/.storysite/manifest.json"))
            let read = try #require(try Manifest.read(in: workspace.path("Output")))
            let changed = Manifest.Entry(size: 5, hash: "new", modified: 99)
            let changeSets: [[String: Manifest.Entry?]] = [
                [:],
                ["p7/index.html": changed],
                ["p1/index.html": changed, "p99/index.html": changed, "p98/index.html": Manifest.Entry?.none],
                ["a/index.html": changed, "z/index.html": changed, "p150/a.html": changed],
                ["p1/index.html": Manifest.Entry?.none, "p99/index.html": Manifest.Entry?.none, "gone/index.html": Manifest.Entry?.none],
                // The same path in another normal form is the same file, kept under its spelling.
                ["cafe\u{301}/index.html": changed],
                Dictionary(uniqueKeysWithValues: made.files.keys.map { ($0, Manifest.Entry?.none) }),
                Dictionary(uniqueKeysWithValues: made.files.keys.map { ($0, changed) }),
            ]
            for changes in changeSets {
                var expected = made
                for (path, entry) in changes { expected.files[path] = entry }
                // Compared whole: a difference would print two manifests of two hundred entries.
                let same = read.encoded(changing: changes) == expected.encoded()
                #expect(same, "changing \(changes.count) paths, \(changes.keys.sorted().prefix(3)) first")
                let written = workspace.path("Output/.storysite/written.json")
                try read.write(changing: changes, to: written)
                #expect(try Data(contentsOf: written) == Data(expected.encoded()), "written, changing \(changes.count) paths")
                // A manifest made, not read, is written the same.
                try made.write(changing: changes, to: written)
                #expect(try Data(contentsOf: written) == Data(expected.encoded()), "made and written, changing \(changes.count) paths")
            }
        }

        @Test("a manifest laid out as storysite writes it reads as the same manifest laid out otherwise, and is checked the same")
        func layoutRead() throws {
            var made = Manifest()
            made.files["index.html"] = Manifest.Entry(size: 0, hash: "00ff00ff00ff00ff", modified: Int64.max)
            made.files["blog/ü ber/index.html"] = Manifest.Entry(size: 1234, hash: "0123456789abcdef", modified: 0)
            made.files["blog/a/index.html"] = Manifest.Entry(size: 7, hash: "h", modified: 1_796_218_491_997_351_685)
            let laidOut = String(decoding: made.encoded(), as: UTF8.self)
            try write(laidOut)
            #expect(try Manifest.read(in: workspace.path("Output")) == made)
            // The same, on one line: read as JSON.
            try write(laidOut.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "  ", with: ""))
            #expect(try Manifest.read(in: workspace.path("Output")) == made)

            // Laid out as storysite writes, and still refused for what it lists.
            let entry = ": {\n      \"hash\": \"h\",\n      \"modified\": \"1\",\n      \"size\": 1\n    }"
            func manifestText(_ paths: String...) -> String {
                "{\n  \"files\": {\n    " + paths.map { "\"\($0)\"" + entry }.joined(separator: ",\n    ")
                    + "\n  },\n  \"generator\": \"storysite\"\n}"
            }
            try write(manifestText("../x"))
            #expect(readProblem()?.hasPrefix("it lists '../x', which storysite would never write") == true)
            try write(manifestText("a", "a/b"))
            #expect(readProblem()?.hasPrefix("it lists both 'a' and 'a/b', which storysite would never write") == true)
            // A time past what 64 bits hold, in the same layout, is no time.
            try write(manifestText("a").replacingOccurrences(of: "\"modified\": \"1\"", with: "\"modified\": \"9223372036854775808\""))
            #expect(readProblem() == "the entry of 'a' needs a size, a hash and a modification time")
            // Paths repeated and out of order: the last entry of a path counts, and they are written sorted.
            try write(manifestText("b", "a", "b").replacingOccurrences(of: "\"size\": 1\n    }\n  }", with: "\"size\": 2\n    }\n  }"))
            let repeated = try #require(try Manifest.read(in: workspace.path("Output")))
            #expect(repeated.files.mapValues(\.size) == ["a": 1, "b": 2])
            #expect(String(decoding: repeated.encoded(), as: UTF8.self) == manifestText("a", "b").replacingOccurrences(
                of: "\"size\": 1\n    }\n  }", with: "\"size\": 2\n    }\n  }"))
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
