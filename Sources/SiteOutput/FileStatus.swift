import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The size and modification time of a file, read with one `stat` call.
struct FileStatus: Equatable {
    var size: Int
    var modified: Int64

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
        size = Int(info.st_size)
        modified = info.modifiedNanoseconds
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
