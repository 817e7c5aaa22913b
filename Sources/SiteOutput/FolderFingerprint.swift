import Foundation
import StoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fingerprint of a folder tree from `stat` alone: every entry's relative path, type, size,
/// modification and change times and inode, in sorted order. Any edit, rename, addition or
/// removal changes it, without reading a file.
public enum FolderFingerprint {
    /// The fingerprint of `folder`; nil when it cannot be read. `skipRootDotfiles` leaves out
    /// entries at the top whose names start with a dot (the build cache, `.git`).
    ///
    /// The tree is read with ``FolderListing`` on at most `jobs` threads.
    public static func of(
        _ folder: URL, skipRootDotfiles: Bool = false, jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> String? {
        guard let listing = try? FolderListing(root: folder.standardizedFileURL.path, skipRootDotfiles: skipRootDotfiles, jobs: jobs) else {
            return nil
        }
        return of(listing)
    }

    /// The fingerprint of the folder `listing` lists, as it was when listed or last refreshed.
    static func of(_ listing: FolderListing) -> String {
        var fingerprint = Fingerprint()
        listing.forEach { path, entry in combine(path, entry.info, into: &fingerprint) }
        return fingerprint.hex
    }

    /// Adds the entry at `path` (`blog/post.json`), of which `stat` said `info`, to `fingerprint`.
    static func combine(_ path: String, _ info: stat, into fingerprint: inout Fingerprint) {
        fingerprint.combine(path)
        fingerprint.combine(Int64(info.st_mode))
        fingerprint.combine(Int64(info.st_size))
        fingerprint.combine(Int64(info.st_ino))
        fingerprint.combine(info.modifiedNanoseconds)
        fingerprint.combine(info.changedNanoseconds)
    }
}
