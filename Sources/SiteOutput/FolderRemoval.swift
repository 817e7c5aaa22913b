import ParallelWork
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes a folder tree with POSIX calls: each level's folders are emptied of files on at most
/// `jobs` threads, then the folders are removed deepest first. The previous site, which a
/// staging build replaces, is tens of thousands of entries, and Foundation's `removeItem` took
/// most of a second for them. Symbolic links are removed, never followed.
enum FolderRemoval {
    /// Removes `root` and everything below it; false when something could not be removed.
    @discardableResult
    static func remove(_ root: String, jobs: Int) -> Bool {
        var levels: [[String]] = []
        var level = [root]
        var removedAll = true
        while !level.isEmpty {
            levels.append(level)
            let found = ParallelWork.map(count: level.count, jobs: jobs) { index in
                removeFiles(in: level[index])
            }
            removedAll = removedAll && found.allSatisfy { $0 != nil }
            level = found.flatMap { $0 ?? [] }
        }
        for level in levels.reversed() {
            let removed = ParallelWork.map(count: level.count, jobs: jobs) { index in rmdir(level[index]) == 0 }
            removedAll = removedAll && !removed.contains(false)
        }
        return removedAll
    }

    /// Removes every entry of the folder at `path` but its folders, and returns their paths; nil
    /// when the folder cannot be read or an entry cannot be removed.
    private static func removeFiles(in path: String) -> [String]? {
        var folders: [String] = []
        var removedAll = true
        let listed = FolderEntries.forEach(in: path) { folder, name, type in
            var isFolder = type == Int32(DT_DIR)
            if type == Int32(DT_UNKNOWN) {
                var info = stat()
                isFolder = fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            if isFolder {
                folders.append(path + "/" + String(cString: name))
            } else if unlinkat(folder, name, 0) != 0 {
                removedAll = false
            }
            return true
        }
        return listed && removedAll ? folders : nil
    }
}
