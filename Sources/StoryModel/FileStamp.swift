#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a listing keeps of an entry's `lstat`: its type and permissions, size, inode and
/// modification and change times. That is all a folder's fingerprint, the content loader and the
/// output's check for changed files read of it, in 40 bytes rather than a whole `stat`'s 144: a
/// listing of 100,000 files holds one for each entry, in two or three lists at once.
public struct FileStamp: Sendable, Equatable {
    public var mode: UInt32
    public var size: Int64
    public var inode: UInt64
    /// The modification time in nanoseconds since 1970.
    public var modified: Int64
    /// The status change time in nanoseconds since 1970.
    public var changed: Int64

    public init(_ info: stat) {
        mode = UInt32(info.st_mode)
        size = Int64(info.st_size)
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
        modified = Self.nanoseconds(info.st_mtimespec)
        changed = Self.nanoseconds(info.st_ctimespec)
        #else
        modified = Self.nanoseconds(info.st_mtim)
        changed = Self.nanoseconds(info.st_ctim)
        #endif
    }

    public init(mode: UInt32, size: Int64 = 0, inode: UInt64 = 0, modified: Int64 = 0, changed: Int64 = 0) {
        self.mode = mode
        self.size = size
        self.inode = inode
        self.modified = modified
        self.changed = changed
    }

    /// The type bits of ``mode``: `S_IFREG`, `S_IFDIR`, `S_IFLNK`…
    private var type: UInt32 { mode & UInt32(S_IFMT) }
    public var isFolder: Bool { type == UInt32(S_IFDIR) }
    public var isRegularFile: Bool { type == UInt32(S_IFREG) }
    public var isSymbolicLink: Bool { type == UInt32(S_IFLNK) }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
