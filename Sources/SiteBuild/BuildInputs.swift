import Foundation
import SiteOutput
import StoryModel

/// Fingerprints of what a build reads, computed before it starts.
struct BuildInputs: Sendable {
    /// The storysite version, every setting that changes output, the templates folder and the
    /// static folder (names and contents): when it changes, no cached page can be reused.
    var key: String
    /// The content folder, from `stat` alone (``FolderFingerprint``); nil for the API source,
    /// whose changes cannot be seen without asking it.
    var content: String? { contentListing?.fingerprint }
    /// The listing the content's fingerprint was taken of, which loading the folder reads too.
    var contentListing: ListedFolder?

    init(settings: SiteSettings, workingDirectory: URL) {
        var key = Fingerprint()
        key.combine("storysite \(SiteBuildVersion.current)")
        key.combine(settings.source)
        key.combine(settings.templates)
        key.combine(settings.entries.joined(separator: "\n"))
        key.combine(settings.baseURL ?? "-")
        key.combine(JSONValue.object(settings.site))
        key.combine(settings.markdownUnsafe ? "unsafe" : "safe")
        key.combine(settings.global)
        key.combine(settings.strict ? "strict" : "lenient")
        key.combine(settings.api.map { "api \($0.baseURL) \($0.version) \($0.language ?? "-")" } ?? "folder")
        key.combine(settings.fallback ?? "-")
        for folder in settings.listings.keys.sorted() { key.combine("listing \(folder) \(settings.listings[folder]!.fingerprintText)") }
        for collection in settings.collections { key.combine("collection \(collection.fingerprintText)") }
        if !settings.languages.isEmpty {
            key.combine("languages " + settings.languages.joined(separator: ",") + " " + settings.translation.rawValue)
        }
        key.combine("dates " + settings.dates.fingerprintText)
        key.combine("images " + settings.images.fingerprintText)
        // Only when set, so that existing builds keep their key.
        if settings.richtext.headingIds { key.combine("richtext " + settings.richtext.fingerprintText) }
        if settings.editable { key.combine("editable") }
        Self.combineFiles(in: workingDirectory.resolving(settings.templates), into: &key)
        // Only when there are static files, so that builds without them keep their key.
        let staticFolder = workingDirectory.resolving(settings.staticFolder)
        if FileManager.default.fileExists(atPath: staticFolder.path) {
            key.combine("static " + settings.staticFolder)
            Self.combineFiles(in: staticFolder, into: &key)
        }
        self.key = key.hex
        contentListing = settings.api == nil ? ListedFolder(workingDirectory.resolving(settings.source), jobs: settings.jobs) : nil
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
