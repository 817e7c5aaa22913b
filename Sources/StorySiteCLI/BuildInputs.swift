import Foundation
import SiteOutput
import StoryModel

/// Fingerprints of what a build reads, computed before it starts.
struct BuildInputs: Sendable {
    /// The storysite version, every setting that changes output, and the templates folder
    /// (names and contents): when it changes, no cached page can be reused.
    var key: String
    /// The content folder, from `stat` alone (``FolderFingerprint``); nil for the API source,
    /// whose changes cannot be seen without asking it.
    var content: String?

    init(options: BuildOptions, context: CommandContext) {
        var key = Fingerprint()
        key.combine("storysite \(StorySite.version)")
        key.combine(options.source)
        key.combine(options.templates)
        key.combine(options.entries.joined(separator: "\n"))
        key.combine(options.baseURL ?? "-")
        key.combine(JSONValue.object(options.site))
        key.combine(options.markdownUnsafe ? "unsafe" : "safe")
        key.combine(options.global)
        key.combine(options.strict ? "strict" : "lenient")
        key.combine(options.api.map { "api \($0.baseURL) \($0.version) \($0.language ?? "-")" } ?? "folder")
        key.combine(options.fallback ?? "-")
        Self.combineFiles(in: context.url(options.templates), into: &key)
        self.key = key.hex
        content = options.api == nil ? FolderFingerprint.of(context.url(options.source), jobs: options.jobs) : nil
    }

    /// Every file below `folder`, by relative path and contents, in sorted order.
    private static func combineFiles(in folder: URL, into fingerprint: inout Fingerprint) {
        let root = folder.standardizedFileURL.path
        guard let paths = FileManager.default.subpaths(atPath: root) else { return }
        for path in paths.sorted() {
            guard let data = FileManager.default.contents(atPath: root + "/" + path) else { continue }
            fingerprint.combine(path)
            fingerprint.combine(bytes: data)
        }
    }
}
