import Foundation

/// The record of every file storysite wrote into an output folder, kept at
/// `<output>/.storysite/manifest.json`.
///
/// It lets a rebuild skip unchanged files (same hash, and the file on disk still has the size and
/// modification time recorded), remove pages that are gone, and refuse folders it did not write.
struct Manifest: Codable, Sendable, Equatable {
    struct Entry: Codable, Sendable, Equatable {
        var size: Int
        var hash: String
        /// Modification time in nanoseconds since 1970, as recorded after writing.
        var modified: Int64
    }

    static let folderName = ".storysite"
    static let fileName = "manifest.json"
    static let relativePath = folderName + "/" + fileName

    var generator = "storysite"
    var files: [String: Entry] = [:]

    /// A manifest file that exists but cannot be read: storysite can no longer tell its files
    /// from the user's.
    struct Unreadable: Error {
        var reason: String
    }

    /// Reads the manifest of `output`; nil when there is none.
    static func read(in output: URL) throws(Unreadable) -> Manifest? {
        let url = output.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url))
        } catch {
            throw Unreadable(reason: "\(error)")
        }
    }

    /// The manifest as stable, sorted JSON.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(self)
    }
}
