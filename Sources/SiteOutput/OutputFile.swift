import Foundation
import StoryModel

/// One file of the built site: its path relative to the output folder, its bytes, and their
/// hash (computed once, for the manifest and the build cache alike).
public struct OutputFile: Sendable, Hashable {
    /// The path, in ``SafePath``'s normal form (NFC).
    public let path: String
    public let contents: Data
    /// ``Fingerprint/contents(_:)`` of the bytes.
    public let hash: String

    public init(path: String, contents: Data) {
        self.path = SafePath.normalized(path)
        self.contents = contents
        hash = Fingerprint.contents(contents)
    }

    public init(path: String, text: String) {
        self.init(path: path, contents: Data(text.utf8))
    }
}
