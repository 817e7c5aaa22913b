import Foundation
import ParallelWork
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
    /// The tree is read a level at a time, the folders of a level on at most `jobs` threads (a
    /// site is tens of thousands of `stat` calls), then combined in path order.
    public static func of(
        _ folder: URL, skipRootDotfiles: Bool = false, jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> String? {
        let root = folder.standardizedFileURL.path
        var listings: [String: [Entry]] = [:]
        var level = [""]
        while !level.isEmpty {
            let read = ParallelWork.map(count: level.count, jobs: jobs) { index in
                entries(of: root + level[index], skipDotfiles: skipRootDotfiles && level[index].isEmpty)
            }
            var next: [String] = []
            for (relative, entries) in zip(level, read) {
                guard let entries else { return nil }
                listings[relative] = entries
                next += entries.filter(\.isFolder).map { relative + "/" + $0.name }
            }
            level = next
        }
        var fingerprint = Fingerprint()
        func combine(_ relative: String) {
            for entry in listings[relative] ?? [] {
                let path = relative + "/" + entry.name
                fingerprint.combine(path)
                for number in entry.numbers { fingerprint.combine(number) }
                if entry.isFolder { combine(path) }
            }
        }
        combine("")
        return fingerprint.hex
    }

    /// One entry of a folder and what `lstat` says of it.
    private struct Entry {
        var name: String
        var isFolder: Bool
        /// Mode, size, inode, modification and change times.
        var numbers: [Int64]
    }

    /// The entries of the folder at `path`, sorted by name; nil when it cannot be read.
    private static func entries(of path: String, skipDotfiles: Bool) -> [Entry]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(names.count)
        for name in names.sorted() where !(skipDotfiles && name.hasPrefix(".")) {
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0 else { return nil }
            entries.append(Entry(
                name: name, isFolder: (info.st_mode & S_IFMT) == S_IFDIR,
                numbers: [Int64(info.st_mode), Int64(info.st_size), Int64(info.st_ino), info.modifiedNanoseconds, info.changedNanoseconds]))
        }
        return entries
    }
}
