import Foundation
import Testing
import TestSupport
@testable import StorySiteCLI

extension StorySiteCLITests {
    /// Expects `storysite.json` holding `json` to be refused with `message`, the whole line as
    /// printed (`storysite.json: error: …`): by ``Configuration/load(from:)`` and, with `build`,
    /// by `storysite build` too, which exits 64 and prints it.
    static func expectRefused(settings json: String, saying message: String, build: Bool = false) async throws {
        let folder = try TemporaryFolder()
        try folder.write("storysite.json", json)
        #expect {
            try Configuration.load(from: folder.url)
        } throws: { error in
            (error as? ConfigurationError)?.description == message
        }
        guard build else { return }
        let result = try await Executable.run(["build"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
