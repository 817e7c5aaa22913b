import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The parsed files of a content folder, kept from one load to the next so that a file whose
/// `stat` is unchanged (size, modification and change times, inode) is not read again: `serve`
/// rebuilds on every save, and re-parsing ten thousand stories for one edit would cost more
/// than the rest of the rebuild.
public final class ParsedFileCache: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var files: [String: (stamp: Stamp, file: StoryFile)] = [:]

    public init() {}

    /// What `stat` says of a file, enough to tell that it has not changed.
    struct Stamp: Equatable {
        var size: Int64
        var modified: Int64
        var changed: Int64
        var inode: UInt64

        /// The stamp of the file at `path`; nil when it cannot be read.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            size = Int64(info.st_size)
            #if canImport(Darwin)
            modified = Self.nanoseconds(info.st_mtimespec)
            changed = Self.nanoseconds(info.st_ctimespec)
            #else
            modified = Self.nanoseconds(info.st_mtim)
            changed = Self.nanoseconds(info.st_ctim)
            #endif
            inode = UInt64(info.st_ino)
        }

        private static func nanoseconds(_ time: timespec) -> Int64 {
            Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        }
    }

    /// The file parsed at `path` when it was last loaded, if it has not changed since.
    func file(at path: String, stamp: Stamp) -> StoryFile? {
        lock.withLock {
            guard let cached = files[path], cached.stamp == stamp else { return nil }
            return cached.file
        }
    }

    /// Replaces what is kept with the files of the latest load, forgetting files that are gone.
    func keep(_ loaded: [String: (stamp: Stamp, file: StoryFile)]) {
        lock.withLock { files = loaded }
    }
}
