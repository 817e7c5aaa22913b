import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("Fingerprints of folder trees from stat alone")
    struct FolderFingerprintTests {
        @Test("every name and every file's stat count; what stat says of a folder does not, since its entries are listed")
        func whatCounts() throws {
            let folder = try TemporaryFolder()
            try folder.write("blog/post/index.html", "post")
            try folder.write("about/index.html", "about")
            let first = try #require(FolderFingerprint.of(folder.url))
            func fingerprint() throws -> String { try #require(FolderFingerprint.of(folder.url)) }

            // A folder's permissions and times change, nothing in it does.
            try FileManager.default.setAttributes([.posixPermissions: 0o700, .modificationDate: Date(timeIntervalSince1970: 0)],
                                                  ofItemAtPath: folder.path("blog").path)
            #expect(try fingerprint() == first)

            try folder.write("about/index.html", "about us")
            let edited = try fingerprint()
            #expect(edited != first)
            try FileManager.default.createDirectory(at: folder.path("blog/empty"), withIntermediateDirectories: false)
            let added = try fingerprint()
            #expect(added != edited)
            try FileManager.default.moveItem(at: folder.path("blog/empty"), to: folder.path("blog/vacant"))
            #expect(try fingerprint() != added)
        }

        @Test("the fingerprint made from the files a write put there is the listing's, whatever their names' order in bytes and in Swift")
        func filesAsListed() throws {
            let folder = try TemporaryFolder()
            let paths = [
                "a/index.html", "a-b/index.html", "a.b/index.html", "a/b/index.html", "ab/index.html", "A/index.html",
                "posts/post-10/index.html", "posts/post-1/index.html", "posts/post-100/index.html", "posts/post-1/x/index.html",
                "a-very-long-shared-beginning-of-a-folder/one/index.html", "a-very-long-shared-beginning-of-a-folder-two/index.html",
                "a-very-long-shared-beginning-of-a-folder/index.html", "café/index.html", "cafe/index.html", "cafë/index.html",
                "zürich/a/index.html", "z/index.html", "Éte/index.html", "sitemap.xml", "404.html", ".nojekyll",
                // A combining mark after a `/` or a root dot: one character with it, two names on disk.
                "m/\u{301}n/index.html", ".\u{301}x",
            ]
            for path in paths { try folder.write(path, path) }
            let files = try paths.map { path in
                (path: path, stamp: try #require(FileStatus(path: folder.path(path).path)).stamp)
            }
            #expect(FolderFingerprint.of(files: files, skipRootDotfiles: true) == FolderFingerprint.of(folder.url, skipRootDotfiles: true))
            #expect(FolderFingerprint.of(files: files.reversed(), skipRootDotfiles: true) == FolderFingerprint.of(folder.url, skipRootDotfiles: true))
        }

        @Test("a listed folder has the fingerprint of its tree and every entry below it, depth-first in name order")
        func listedFolder() throws {
            let folder = try TemporaryFolder()
            try folder.write("b/post.json", "{}")
            try folder.write("a.json", "[]")
            try folder.write(".git/config", "x")
            let listed = try #require(ListedFolder(folder.url, jobs: 2))
            #expect(listed.fingerprint == FolderFingerprint.of(folder.url))
            #expect(listed.entries.map(\.path) == [".git", ".git/config", "a.json", "b", "b/post.json"])
            #expect(listed.entries.map(\.stamp.isFolder) == [true, false, false, true, false])
            #expect(listed.entries.map(\.stamp.isRegularFile) == [false, true, true, false, true])
            #expect(listed.entries[2].stamp.size == 2)
            #expect(ListedFolder(folder.path("missing"), jobs: 2) == nil)
        }

        @Test("a listed folder's fingerprint sees an edit behind a symbolic link to a file; a link to a folder leaves it without one")
        func listedLinks() throws {
            let folder = try TemporaryFolder()
            let elsewhere = try TemporaryFolder()
            try folder.write("a.json", "[]")
            try elsewhere.write("story.json", "{}")
            try FileManager.default.createSymbolicLink(atPath: folder.path("linked.json").path, withDestinationPath: elsewhere.path("story.json").path)
            let before = try #require(ListedFolder(folder.url, jobs: 2)?.fingerprint)
            try elsewhere.write("story.json", "{\"edited\": true}")
            #expect(ListedFolder(folder.url, jobs: 2)?.fingerprint != before)

            try FileManager.default.createSymbolicLink(atPath: folder.path("shared").path, withDestinationPath: elsewhere.url.path)
            let linked = try #require(ListedFolder(folder.url, jobs: 2))
            #expect(linked.fingerprint == nil)
            #expect(linked.entries.map(\.path) == ["a.json", "linked.json", "shared"])
        }
    }
}
