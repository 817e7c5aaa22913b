import Foundation
import ParallelWork
import StoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the site's files with plain POSIX calls, from many threads at once.
///
/// Foundation's `Data.write(to:)` syncs every file to disk, which made writing 10,000 pages take
/// seconds of journal commits. A build needs no per-file sync: the staging folder swap, not the
/// disk cache, is what keeps a build all-or-nothing (as for every static site generator).
/// Folders are made first, a level at a time, so that files can then be written in any order.
enum SiteFileWriter {
    /// Creates the folders `folders` (paths relative to `root`, `""` for `root` itself) and their
    /// parents below `root`, which must exist: each level's folders on at most `jobs` threads,
    /// parents before children. Folders that exist already are fine.
    static func createFolders(_ folders: some Sequence<String>, in root: String, jobs: Int) throws {
        var levels: [[String]] = []
        var seen: Set<String> = [""]
        for folder in folders {
            var path = Substring(folder)
            // The folder, then each parent not seen yet.
            while !path.isEmpty, seen.insert(String(path)).inserted {
                let depth = path.utf8.count(where: { $0 == UInt8(ascii: "/") })
                while levels.count <= depth { levels.append([]) }
                levels[depth].append(String(path))
                path = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
            }
        }
        for level in levels {
            let failures = ParallelWork.map(count: level.count, jobs: jobs) { index -> CocoaError? in
                let path = root + "/" + level[index]
                return mkdir(path, 0o755) == 0 || errno == EEXIST ? nil : POSIXFile.failure("mkdir", path)
            }
            if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
        }
    }

    /// Creates the folder `folder` (a path relative to `root`, which must exist) and any parents
    /// it lacks: the folder first, and its parents only when it cannot be made without them. A
    /// page's folder is most often the only one missing, so this is one `mkdir`, not one for each
    /// folder above it too.
    static func createFolder(_ folder: String, in root: String) throws {
        let path = root + "/" + folder
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT else { throw POSIXFile.failure("mkdir", path) }
        try createFolders([folder], in: root, jobs: 1)
    }

    /// Writes `data` to `path`, replacing any file there (its folder must exist), and returns the
    /// status of the file written.
    static func write(_ data: Data, to path: String) throws -> FileStatus {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXFile.failure("open", path) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { try POSIXFile.write($0, to: descriptor, path: path) }
        guard let status = FileStatus(descriptor: descriptor) else { throw POSIXFile.failure("fstat", path) }
        return status
    }
}
