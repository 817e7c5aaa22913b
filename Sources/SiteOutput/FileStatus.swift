import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one `stat` call says of a regular file: its size and modification time, and what the
/// fingerprint of a folder made from the files a write wrote takes of it (``FolderFingerprint``).
struct FileStatus {
    let stamp: Stamp

    var size: Int { Int(stamp.size) }
    var modified: Int64 { stamp.modified }

    /// What a folder's fingerprint takes of an entry's `stat`: its type and permissions, size,
    /// inode and modification and change times (a fifth of a whole `stat`, which a write of
    /// 100,000 files keeps for each).
    struct Stamp {
        var mode: UInt32
        var size: Int64
        var inode: UInt64
        var modified: Int64
        var changed: Int64

        init(_ info: stat) {
            mode = UInt32(info.st_mode)
            size = Int64(info.st_size)
            inode = UInt64(info.st_ino)
            modified = info.modifiedNanoseconds
            changed = info.changedNanoseconds
        }
    }

    /// The status of the regular file at `path`; nil when it is missing or not a regular file.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The status of the regular file open as `descriptor`; nil when it is not a regular file.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init?(_ info: stat) {
        guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        stamp = Stamp(info)
    }
}

extension stat {
    /// The modification time in nanoseconds since 1970.
    var modifiedNanoseconds: Int64 {
        #if canImport(Darwin)
        Self.nanoseconds(st_mtimespec)
        #else
        Self.nanoseconds(st_mtim)
        #endif
    }

    /// The status change time in nanoseconds since 1970.
    var changedNanoseconds: Int64 {
        #if canImport(Darwin)
        Self.nanoseconds(st_ctimespec)
        #else
        Self.nanoseconds(st_ctim)
        #endif
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
