import Foundation
import ParallelWork
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every entry below a folder with what `lstat` says of it, read a level at a time, each level's
/// folders on at most `jobs` threads: an output folder is tens of thousands of entries, and the
/// folder fingerprint and the check for files storysite did not write both need all of them.
struct FolderListing {
    /// One entry of a folder.
    struct Entry {
        var name: String
        var info: stat

        var isFolder: Bool { (info.st_mode & S_IFMT) == S_IFDIR }
    }

    /// The entries of each folder, sorted by name, keyed by the folder's path relative to the
    /// root: `""` for the root, `"/blog"`, `"/blog/post"`.
    let folders: [String: [Entry]]

    /// A folder that could not be listed: its path relative to the root (`""`, `"/blog"`) and why.
    struct Unlistable: Error {
        var folder: String
        var reason: String
    }

    /// Lists `root`; throws when a folder in it cannot be read, never leaving one out.
    /// `skipRootDotfiles` leaves out entries at the top whose names start with a dot (the build
    /// cache, `.git`).
    init(root: String, skipRootDotfiles: Bool, jobs: Int) throws(Unlistable) {
        var folders: [String: [Entry]] = [:]
        var level = [""]
        while !level.isEmpty {
            let read = ParallelWork.map(count: level.count, jobs: jobs) { index in
                Self.entries(of: root, level[index], skipDotfiles: skipRootDotfiles && level[index].isEmpty)
            }
            var next: [String] = []
            for (relative, entries) in zip(level, read) {
                let entries = try entries.get()
                folders[relative] = entries
                next += entries.filter(\.isFolder).map { relative + "/" + $0.name }
            }
            level = next
        }
        self.folders = folders
    }

    /// Visits every entry depth-first in name order, with its path relative to the root
    /// (`/blog/post/index.html`).
    func forEach(_ visit: (_ path: String, _ entry: Entry) -> Void) {
        func walk(_ relative: String) {
            for entry in folders[relative] ?? [] {
                let path = relative + "/" + entry.name
                visit(path, entry)
                if entry.isFolder { walk(path) }
            }
        }
        walk("")
    }

    /// The paths of the entries that are not folders, relative to the root without a leading
    /// slash (`blog/post/index.html`), sorted.
    var filePaths: [String] {
        var paths: [String] = []
        forEach { path, entry in
            if !entry.isFolder { paths.append(String(path.dropFirst())) }
        }
        return paths.sorted()
    }

    /// The entries of the folder at `root + relative`, sorted by name. Each entry is `lstat`ed
    /// relative to its open folder, so the kernel does not walk the whole path again.
    private static func entries(of root: String, _ relative: String, skipDotfiles: Bool) -> Result<[Entry], Unlistable> {
        var entries: [Entry] = []
        var failure: Unlistable?
        let complete = FolderEntries.forEach(in: root + relative) { folder, name, _ in
            if skipDotfiles && name[0] == CChar(UInt8(ascii: ".")) { return true }
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                failure = Unlistable(folder: relative + "/" + String(cString: name), reason: String(cString: strerror(errno)))
                return false
            }
            entries.append(Entry(name: String(cString: name), info: info))
            return true
        }
        if let failure { return .failure(failure) }
        guard complete else { return .failure(Unlistable(folder: relative, reason: String(cString: strerror(errno)))) }
        return .success(entries.sorted { $0.name < $1.name })
    }
}
