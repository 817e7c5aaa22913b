import Foundation
import StoryModel

/// One file of the built site: its path relative to the output folder, its bytes, and their
/// hash (computed once, for the manifest and the build cache alike). A file already written to
/// the staging folder (``StagingFolder/put(_:)``) no longer holds its bytes.
public struct OutputFile: Sendable, Hashable {
    /// The path, in ``SafePath``'s normal form (NFC).
    public let path: String
    /// The bytes; empty for a staged file.
    public let contents: Data
    /// ``Fingerprint/contents(_:)`` of the bytes.
    public let hash: String
    /// How many bytes the file has.
    public let size: Int
    /// Whether the file is in the staging folder already, and holds no bytes here.
    public let isStaged: Bool

    public init(path: String, contents: Data) {
        self.path = SafePath.normalized(path)
        self.contents = contents
        hash = Fingerprint.contents(contents)
        size = contents.count
        isStaged = false
    }

    public init(path: String, text: String) {
        self.init(path: path, contents: Data(text.utf8))
    }

    /// `file` as the staging folder holds it: everything but its bytes.
    init(staged file: OutputFile) {
        path = file.path
        contents = Data()
        hash = file.hash
        size = file.size
        isStaged = true
    }
}
