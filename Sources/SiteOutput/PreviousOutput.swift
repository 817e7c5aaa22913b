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

    init(manifest: Manifest?, listing: FolderListing?, problem: OutputError?) {
        self.manifest = manifest
        self.listing = listing
        self.problem = problem
    }

    /// The files of the previous build still on disk as it wrote them (size and modification
    /// time as recorded), with their content hashes: a caller may keep them without rendering.
    public func intactFiles() -> [String: String] {
        guard let manifest, let listing else { return [:] }
        var intact: [String: String] = [:]
        intact.reserveCapacity(manifest.files.count)
        listing.forEachFile { path, entry in
            // A path an earlier version wrote in another normal form is never kept: written again in NFC.
            guard let recorded = manifest.files[path], SafePath.isNormalized(path), entry.isRegularFile,
                  Int(entry.stamp.size) == recorded.size, entry.stamp.modified == recorded.modified else { return }
            intact[path] = recorded.hash
        }
        return intact
    }

    /// The folder's ``FolderFingerprint`` as listed (or refreshed); nil when there is no folder
    /// or it could not be listed.
    var fingerprint: String? { listing.map(FolderFingerprint.of) }

    /// The files below the folder that its manifest does not name byte for byte, sorted.
    static func foreignFiles(in listing: FolderListing, manifest: Manifest?) -> [String] {
        var foreign: [String] = []
        listing.forEachFile { path, _ in
            if !(manifest?.lists(exactly: path) ?? false) { foreign.append(path) }
        }
        return foreign.sorted()
    }
}
