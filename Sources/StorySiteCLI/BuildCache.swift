import Foundation
import SiteOutput

/// What a build remembers for the next one, in `<output>/.storysite/cache.json`: the inputs it
/// was built from, a fingerprint of the files it left, the warnings it printed, and for every
/// page the fingerprint of what its rendering read and the hash of what it wrote.
///
/// A cache whose key differs (another storysite version, template or setting) is ignored; a
/// missing or unreadable one just means a full build.
struct BuildCache: Codable, Sendable {
    /// One page as last rendered.
    struct Page: Codable, Sendable, Equatable {
        /// ``BuildPageFingerprints`` of the page's render inputs.
        var fingerprint: String
        var path: String
        /// The written file's content hash, as in the manifest.
        var hash: String
        var missingComponents: [String]
        var warnings: [Warning]
    }

    /// A warning found while rendering, or by the build as a whole.
    struct Warning: Codable, Sendable, Equatable, Hashable {
        var location: String
        var message: String
    }

    static let relativePath = ".storysite/cache.json"

    /// ``BuildInputs/key``: storysite version, settings and templates.
    var key: String
    /// ``BuildInputs/content`` when the source is a folder.
    var content: String?
    /// ``FolderFingerprint`` of the output folder after the write.
    var output: String?
    var storyCount: Int
    var pageCount: Int
    var fileCount: Int
    /// Every warning the build printed, to print again when nothing changed.
    var warnings: [Warning]
    /// By story UUID.
    var pages: [String: Page]

    /// The cache in `output`, when it was written with `key`; nil when missing, corrupt or stale.
    static func read(in output: URL, key: String) -> BuildCache? {
        guard let data = try? Data(contentsOf: output.appendingPathComponent(relativePath)),
              let cache = try? JSONDecoder().decode(BuildCache.self, from: data), cache.key == key else { return nil }
        return cache
    }

    /// Saves the cache in `output` (atomically: a reader sees the old cache or the new one).
    func write(in output: URL) throws {
        let url = output.appendingPathComponent(Self.relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(self).write(to: url, options: .atomic)
    }
}
