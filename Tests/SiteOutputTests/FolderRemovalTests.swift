import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("Removing a folder tree")
    struct FolderRemovalTests {
        @Test("removes every file, dotfile and folder at any depth, and only removes symbolic links, never what they name")
        func removesTree() throws {
            let workspace = try TemporaryFolder()
            for index in 0..<40 { try workspace.write("Old/p\(index % 7)/q\(index)/index.html", "page \(index)") }
            try workspace.write("Old/.nojekyll", "")
            try workspace.write("Old/.storysite/manifest.json", "{}")
            try FileManager.default.createDirectory(at: workspace.path("Old/empty/deeper"), withIntermediateDirectories: true)
            try workspace.write("Kept/precious.txt", "mine")
            try FileManager.default.createSymbolicLink(atPath: workspace.path("Old/p1/link").path, withDestinationPath: workspace.path("Kept").path)
            try FileManager.default.createSymbolicLink(atPath: workspace.path("Old/p2/file-link").path, withDestinationPath: workspace.path("Kept/precious.txt").path)

            #expect(FolderRemoval.remove(workspace.path("Old").path, jobs: 3))
            #expect(!workspace.exists("Old"))
            #expect(try workspace.read("Kept/precious.txt") == "mine")
        }

        @Test("a folder that is not there is reported, and nothing else is touched")
        func missingFolder() throws {
            let workspace = try TemporaryFolder()
            try workspace.write("Kept/a.txt", "a")
            #expect(!FolderRemoval.remove(workspace.path("Missing").path, jobs: 2))
            #expect(workspace.exists("Kept/a.txt"))
        }
    }
}
