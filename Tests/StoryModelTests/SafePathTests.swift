import Testing
@testable import StoryModel

extension StoryModelTests {
    /// The one rule for paths storysite writes or deletes below a folder it writes.
    @Suite("Safe paths")
    struct SafePathTests {
        @Test("paths that leave the folder, reach storysite's records or the user's repository, or exceed file-name limits are refused, with the reason", arguments: [
            ("../x", "it contains a '..' segment"),
            ("a/../../x", "it contains a '..' segment"),
            ("/etc/passwd", "it is an absolute path"),
            ("a\\b", "it contains a backslash"),
            ("a\nb", "it contains a control character"),
            ("a//b", "it contains an empty segment ('//')"),
            ("a/./b", "it contains a '.' segment"),
            ("./a", "it contains a '.' segment"),
            ("a/..", "it contains a '..' segment"),
            // A `/` or `\\` followed by a combining mark is one character with it: still a separator.
            ("../\u{35A}x", "it contains a '..' segment"),
            ("/\u{35A}etc/passwd", "it is an absolute path"),
            ("a\\\u{301}b", "it contains a backslash"),
            ("a\u{7F}b", "it contains a control character"),
            ("a/" + String(repeating: "b", count: 256), "the segment 'bbbbbbbbbbbbbbbbbbbb…' is 256 bytes long; a file name may be at most 255"),
            ("a/", "it contains an empty segment ('//')"),
            (".git/config", "'.git/' is the user's repository, never a file of the site"),
            (".storysite/manifest.json", "'.storysite/' is storysite's own, never a file of the site"),
            (String(repeating: "a", count: 256), "the segment 'aaaaaaaaaaaaaaaaaaaa…' is 256 bytes long; a file name may be at most 255"),
            (Array(repeating: String(repeating: "a", count: 200), count: 6).joined(separator: "/"), "it is 1205 bytes long; a path may be at most 1024"),
        ])
        func refused(path: String, reason: String) {
            #expect(SafePath.problem(in: path) == reason)
        }

        @Test("pages, assets, root files such as .well-known/ and hidden files below the top are fine")
        func accepted() {
            let paths = [
                "index.html", "blog/post/index.html", ".well-known/security.txt", "assets/.x", "a#b/index.html", String(repeating: "a", count: 255),
                "a/.../b", "a/..b/c", "caf\u{E9}/index.html", "docs/.git/x", ".gitignore",
            ]
            for path in paths {
                #expect(SafePath.problem(in: path) == nil, "\(path)")
            }
        }

        @Test("paths are written in NFC, and only NFC counts as normalized byte for byte")
        func normalForm() {
            let decomposed = "cafe\u{301}/index.html", composed = "caf\u{E9}/index.html"
            #expect(Array(SafePath.normalized(decomposed).utf8) == Array(composed.utf8))
            #expect(SafePath.isNormalized(composed) && !SafePath.isNormalized(decomposed))
        }

        @Test("a file that another path needs as a folder is a conflict, named once with the file first")
        func folderConflicts() {
            let conflicts = SafePath.folderConflicts(among: ["assets/style.css", "assets/style.css/index.html", "index.html", "a/index.html"])
            #expect(conflicts.map { [$0.file, $0.below] } == [["assets/style.css", "assets/style.css/index.html"]])
            // Many paths, some deep, a file below a file below a file; and the same with a path
            // that is not ASCII, whose folders are compared as Swift compares text.
            var paths = (0..<2_000).map { "posts/post-\($0)/index.html" } + ["a", "a/b", "a/b/c", "a-b/c", "a.html"]
            let expected = [["a", "a/b"], ["a", "a/b/c"], ["a/b", "a/b/c"]]
            #expect(SafePath.folderConflicts(among: paths).map { [$0.file, $0.below] } == expected)
            #expect(SafePath.folderConflicts(among: paths + ["a/b/c"]).map { [$0.file, $0.below] } == expected, "a path given twice")
            paths += ["caf\u{E9}", "cafe\u{301}/index.html"]
            #expect(SafePath.folderConflicts(among: paths).map { [$0.file, $0.below] } == expected + [["caf\u{E9}", "cafe\u{301}/index.html"]])
        }

        @Test("paths in the order of their bytes give the same conflicts in one pass, and paths in no such order none")
        func orderedFolderConflicts() {
            // `a-b` and `a.html` sort between `a` and `a/b`, and `a/b!` between `a/b` and `a/b/c`.
            let paths = ((0..<2_000).map { "posts/post-\($0)/index.html" } + ["a", "a/b", "a/b/c", "a-b/c", "a.html", "a/b!", "ab/c", "x/y"])
                .sorted { $0.utf8Precedes($1) }
            let found = SafePath.folderConflicts(amongOrdered: paths)?.map { [$0.file, $0.below] }
            #expect(found == [["a", "a/b"], ["a", "a/b!"], ["a", "a/b/c"], ["a/b", "a/b/c"]])
            #expect(found == SafePath.folderConflicts(among: paths).map { [$0.file, $0.below] })
            #expect(SafePath.folderConflicts(amongOrdered: ["a/index.html", "b", "c/index.html"])?.isEmpty == true)
            #expect(SafePath.folderConflicts(amongOrdered: ["b", "a"]) == nil, "out of order")
            #expect(SafePath.folderConflicts(amongOrdered: ["a", "a"]) == nil, "a path given twice")
            #expect(SafePath.folderConflicts(amongOrdered: ["caf\u{E9}", "caf\u{E9}/index.html"]) == nil, "not ASCII")
        }
    }
}
