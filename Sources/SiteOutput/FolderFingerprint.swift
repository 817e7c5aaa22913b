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

    /// The fingerprint of a folder that holds exactly `files` (paths relative to it, each with
    /// what `lstat` says of it) and the folders they are in, root dotfiles left out with
    /// `skipRootDotfiles`: what listing it would give, made without reading it. The files are
    /// sorted by their paths' names, one folder level after the other, which is the order in
    /// which a listing visits them, each folder just before what it holds.
    static func of(files: [(path: String, stamp: FileStatus.Stamp)], skipRootDotfiles: Bool) -> String {
        let listed = skipRootDotfiles ? files.filter { !$0.path.hasPrefix(".") } : files
        let names = listed.map { $0.path.split(separator: "/") }
        let order = names.indices.sorted { names[$0].lexicographicallyPrecedes(names[$1]) }
        let folderStamp = FileStatus.Stamp(FolderListing.Entry(folderNamed: "").info)
        var fingerprint = Fingerprint()
        // The folders the last file was in, from the top.
        var folders: [Substring] = []
        for index in order {
            let file = names[index]
            var shared = 0
            while shared < folders.count, shared < file.count - 1, folders[shared] == file[shared] { shared += 1 }
            folders.removeLast(folders.count - shared)
            for name in file[shared..<(file.count - 1)] {
                folders.append(name)
                combine(folders.joined(separator: "/"), folderStamp, into: &fingerprint)
            }
            combine(listed[index].path, listed[index].stamp, into: &fingerprint)
        }
        return fingerprint.hex
    }

    /// Adds the entry at `path` (`blog/post.json`), of which `stat` said `info`, to `fingerprint`.
    static func combine(_ path: String, _ info: stat, into fingerprint: inout Fingerprint) {
        combine(path, FileStatus.Stamp(info), into: &fingerprint)
    }

    /// Adds the entry at `path`, of which `stat` said what `stamp` holds, to `fingerprint`.
    private static func combine(_ path: String, _ stamp: FileStatus.Stamp, into fingerprint: inout Fingerprint) {
        fingerprint.combine(path)
        fingerprint.combine(Int64(stamp.mode))
        fingerprint.combine(stamp.size)
        fingerprint.combine(Int64(bitPattern: stamp.inode))
        fingerprint.combine(stamp.modified)
        fingerprint.combine(stamp.changed)
    }
}
