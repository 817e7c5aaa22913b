import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one `stat` call says of a regular file: its size and modification time, and the whole
/// `stat` for the fingerprint of a folder made from the files a write wrote (``FolderFingerprint``).
struct FileStatus {
    /// What `stat` said.
    let info: stat

    var size: Int { Int(info.st_size) }
    var modified: Int64 { info.modifiedNanoseconds }

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
        self.info = info
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
