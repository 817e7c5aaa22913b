import Foundation
import StoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder tree as one listing found it: its ``FolderFingerprint`` and every entry below it with
/// what `lstat` said, so that whoever reads the folder next (the content loader) need not list
/// and `stat` it again, and sees the very state the fingerprint was taken of.
public struct ListedFolder: Sendable {
    /// The fingerprint of the tree, as ``FolderFingerprint/of(_:skipRootDotfiles:jobs:)`` gives it.
    public let fingerprint: String
    /// Every entry, depth-first in name order: its path relative to the folder
    /// (`blog/post.json`) and what `lstat` said of it (of a folder, only that it is one).
    public let entries: [(path: String, info: stat)]

    /// Lists `folder` on at most `jobs` threads; nil when it cannot be read.
    public init?(_ folder: URL, jobs: Int) {
        guard let listing = try? FolderListing(root: folder.standardizedFileURL.path, skipRootDotfiles: false, jobs: jobs) else {
            return nil
        }
        var entries: [(path: String, info: stat)] = []
        var fingerprint = Fingerprint()
        listing.forEach { path, entry in
            FolderFingerprint.combine(path, entry, into: &fingerprint)
            entries.append((path, entry.info))
        }
        self.fingerprint = fingerprint.hex
        self.entries = entries
    }
}
