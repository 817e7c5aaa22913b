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
    /// The fingerprint of the tree as ``FolderFingerprint/of(_:skipRootDotfiles:jobs:)`` gives
    /// it, with what `stat` says of the file each symbolic link names: whoever reads the folder
    /// follows links, so an edit behind one is a change. Nil when a link names a folder (what it
    /// holds is not listed, so a change in it could not be seen).
    public let fingerprint: String?
    /// Every entry, depth-first in name order: its path relative to the folder
    /// (`blog/post.json`) and what `lstat` said of it (of a folder, only that it is one).
    public let entries: [(path: String, stamp: FileStamp)]

    /// Lists `folder` on at most `jobs` threads; nil when it cannot be read.
    public init?(_ folder: URL, jobs: Int) {
        guard let listing = try? FolderListing(root: folder.standardizedFileURL.path, skipRootDotfiles: false, jobs: jobs) else {
            return nil
        }
        // Room for every entry at once: grown by appends, 100,000 entries held twice the memory
        // they need for the whole build.
        var entries: [(path: String, stamp: FileStamp)] = []
        entries.reserveCapacity(listing.count)
        var fingerprint = Fingerprint()
        var linksFolder = false
        listing.forEach { path, entry in
            FolderFingerprint.combine(path, entry.stamp, into: &fingerprint)
            entries.append((path, entry.stamp))
            guard entry.stamp.isSymbolicLink else { return }
            var target = stat()
            if stat(listing.root + "/" + path, &target) == 0 {
                linksFolder = linksFolder || target.st_mode & S_IFMT == S_IFDIR
                FolderFingerprint.combine(path, FileStamp(target), into: &fingerprint)
            }
        }
        self.fingerprint = linksFolder ? nil : fingerprint.hex
        self.entries = entries
    }
}
