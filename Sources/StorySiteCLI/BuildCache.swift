import Foundation
import SiteOutput

/// What a build remembers for the next one, in `<output>/.storysite/`: in `cache.json` the
/// inputs it was built from, a fingerprint of the files it left and the warnings it printed; in
/// `pages.json`, for every page, the fingerprint of what its rendering read and the hash of what
/// it wrote. A build that finds nothing changed reads only the first, small file.
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
    static let pagesRelativePath = ".storysite/pages.json"

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
    /// By story UUID; empty as ``read(in:key:)`` returns the cache (see ``readingPages(in:)``).
    var pages: [String: Page] = [:]

    private enum CodingKeys: String, CodingKey {
        case key, content, output, storyCount, pageCount, fileCount, warnings
    }

    /// The page records as saved, with the key they were written under.
    private struct PageRecords: Codable {
        var key: String
        var pages: [String: Page]
    }

    /// The cache in `output` without its page records, when it was written with `key`; nil when
    /// missing, corrupt or stale.
    static func read(in output: URL, key: String) -> BuildCache? {
        guard let data = try? Data(contentsOf: output.appendingPathComponent(relativePath)),
              let cache = try? JSONDecoder().decode(BuildCache.self, from: data), cache.key == key else { return nil }
        return cache
    }

    /// The cache with its page records read from `output` (none when they are missing, corrupt
    /// or were written under another key: those pages just render again).
    func readingPages(in output: URL) -> BuildCache {
        var cache = self
        if let data = try? Data(contentsOf: output.appendingPathComponent(Self.pagesRelativePath)),
           let records = try? JSONDecoder().decode(PageRecords.self, from: data), records.key == key {
            cache.pages = records.pages
        }
        return cache
    }

    /// Saves the cache in `output`, each file atomically: a reader sees old or new files, and a
    /// page record is only ever used for a file whose hash it matches.
    func write(in output: URL) throws {
        let folder = output.appendingPathComponent(Self.relativePath).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let records = PageRecords(key: key, pages: pages)
        try JSONEncoder().encode(records).write(to: output.appendingPathComponent(Self.pagesRelativePath), options: .atomic)
        try JSONEncoder().encode(self).write(to: output.appendingPathComponent(Self.relativePath), options: .atomic)
    }
}
