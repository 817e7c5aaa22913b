import Foundation
import Testing
import TestSupport

@testable import StorySiteCLI

extension StorySiteCLITests {
    /// The starter site embedded in the executable is the repository's own demo and theme, as
    /// they are now: `Scripts/embed-starter` regenerates it, and these fail while it is stale.
    @Suite("the embedded starter site")
    struct StarterFilesTests {
        static let root = SharedFixtures.repositoryRoot

        @Test("every embedded file has the bytes of the repository file it was made from")
        func embeddedFilesAreCurrent() throws {
            for file in StarterFile.all {
                let current = FileManager.default.contents(atPath: Self.root.appendingPathComponent(file.source).path)
                #expect(current == file.contents, "\(file.source) changed or is gone: run Scripts/embed-starter")
            }
        }

        @Test("every file of Content/ and Templates/ is embedded, and storysite.json, .gitignore and the workflow too")
        func everyFileIsEmbedded() throws {
            let embedded = Set(StarterFile.all.map(\.source))
            for folder in ["Content", "Templates"] {
                let paths = FileManager.default.subpaths(atPath: Self.root.appendingPathComponent(folder).path) ?? []
                #expect(!paths.isEmpty)
                for path in paths {
                    var isFolder: ObjCBool = false
                    let full = Self.root.appendingPathComponent(folder + "/" + path).path
                    guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                    #expect(embedded.contains(folder + "/" + path), "\(folder)/\(path) is not embedded: run Scripts/embed-starter")
                }
            }
            let written = Set(StarterFile.all.map(\.path))
            #expect(written.isSuperset(of: ["storysite.json", ".gitignore", ".github/workflows/pages.yml"]))
        }
    }
}
