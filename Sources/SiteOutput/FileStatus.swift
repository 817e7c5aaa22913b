import Foundation
import StoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one `stat` call says of a regular file: its size and modification time, and what the
/// fingerprint of a folder made from the files a write wrote takes of it (``FolderFingerprint``).
struct FileStatus {
    let stamp: FileStamp

    var size: Int { Int(stamp.size) }
    var modified: Int64 { stamp.modified }

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
        stamp = FileStamp(info)
    }
}
