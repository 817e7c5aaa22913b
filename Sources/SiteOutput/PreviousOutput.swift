import Foundation
import StoryModel

/// The output folder as a build finds it, read once: the previous build's manifest and what
/// `lstat` says of every entry below the folder. From it a build learns which files are still as
/// written, and the write whether the folder holds files storysite did not write; after a write
/// in place, its listing is refreshed for the changed files alone to give the new fingerprint.
/// One read instead of one per question is what keeps a rebuild of one changed page cheap.
public struct PreviousOutput: Sendable {
    /// The previous build's manifest; nil when there is none, or when `problem` says why not.
    let manifest: Manifest?
    /// Every entry below the folder, root dotfiles left out; nil when there is no folder, or when
    /// `problem` says why not.
    var listing: FolderListing?
    /// Why the folder must not be written over: it is a file, its manifest cannot be read, a
    /// folder in it cannot be listed, or it holds files storysite did not write.
    let problem: OutputError?

    /// The files still as the last build wrote them, with their content hashes (``intactFiles()``).
    private let intact: [String: String]

    init(manifest: Manifest?, listing: FolderListing?, problem: OutputError?, intact: [String: String] = [:]) {
        self.manifest = manifest
        self.listing = listing
        self.problem = problem
        self.intact = intact
    }

    /// The files of the previous build still on disk as it wrote them (size and modification
    /// time as recorded), with their content hashes: a caller may keep them without rendering.
    public func intactFiles() -> [String: String] { intact }

    /// The folder's ``FolderFingerprint`` as listed (or refreshed); nil when there is no folder
    /// or it could not be listed.
    var fingerprint: String? { listing.map(FolderFingerprint.of) }

    /// The files below the folder that its manifest does not name byte for byte, sorted.
    static func foreignFiles(in listing: FolderListing, manifest: Manifest?) -> [String] {
        survey(listing, manifest: manifest, findingIntact: false).foreign
    }

    /// One pass over the files `listing` lists, a lookup in `manifest` each: those it does not
    /// name byte for byte (sorted), and, with `findingIntact`, those still as it recorded them,
    /// with their content hashes (see ``intactFiles()``).
    static func survey(
        _ listing: FolderListing, manifest: Manifest?, findingIntact: Bool
    ) -> (foreign: [String], intact: [String: String]) {
        var foreign: [String] = []
        var intact: [String: String] = [:]
        if findingIntact { intact.reserveCapacity(manifest?.files.count ?? 0) }
        listing.forEachFile { path, entry in
            guard let files = manifest?.files, let index = files.index(forKey: path) else {
                foreign.append(path)
                return
            }
            // Swift's `==` calls canonically equivalent names equal, while the file system holds both.
            if !files[index].key.hasSameUTF8(as: path) { foreign.append(path) }
            // A path an earlier version wrote in another normal form is never kept: written again in NFC.
            let recorded = files[index].value
            guard findingIntact, SafePath.isNormalized(path), entry.isRegularFile,
                  Int(entry.stamp.size) == recorded.size, entry.stamp.modified == recorded.modified else { return }
            intact[path] = recorded.hash
        }
        return (foreign.sorted(), intact)
    }
}
