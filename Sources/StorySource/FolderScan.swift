import StoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lists and reads a content folder's files with POSIX calls: for ten thousand files,
/// Foundation's enumerator, URLs and path strings cost more than the parsing.
enum FolderScan {
    /// A file system call that failed, with the path and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { reason }

        init(path: String, errorNumber: Int32 = errno) {
            self.path = path
            self.reason = String(cString: strerror(errorNumber))
        }
    }

    /// The JSON files under `folder` at any depth, as paths relative to it, in byte order so that
    /// loading is deterministic. Hidden files and folders (`.git`) are skipped; symbolic links are
    /// followed, each folder visited once.
    static func jsonFiles(in folder: String) throws(Failure) -> [String] {
        var files: [String] = []
        var seen: Set<FolderIdentity> = []
        try scan(folder, relative: "", into: &files, seen: &seen)
        return files.sorted { $0.utf8Precedes($1) }
    }

    /// The JSON files among `entries`, a listing of the folder (paths relative to it, with what
    /// `lstat` said of each), as ``jsonFiles(in:)`` would find them, in the same order, each with
    /// its stamp; nil when the listing holds a symbolic link, or anything else but files and
    /// folders, outside hidden folders: only a scan follows those.
    static func jsonFiles(listed entries: some Sequence<(path: String, stamp: FileStamp)>) -> [(path: String, stamp: ParsedFileCache.Stamp)]? {
        var files: [(path: String, stamp: ParsedFileCache.Stamp)] = []
        var inByteOrder = true
        let complete = forEachStoryFile(listed: entries) { path, stamp in
            if inByteOrder, let last = files.last { inByteOrder = last.path.utf8Precedes(path) }
            files.append((path, ParsedFileCache.Stamp(stamp)))
        }
        guard complete else { return nil }
        // A listing's order is its paths' byte order unless a folder's name begins another's
        // (`blog` and `blog-2024`, whose `-` comes before `/`): sorted only then. Sorting 100,000
        // paths again took a build 10 ms on one thread.
        return inByteOrder ? files : files.sorted { $0.path.utf8Precedes($1.path) }
    }

    /// Calls `visit` with each JSON file among `entries` (see ``jsonFiles(listed:)``), in their
    /// order; false, having stopped, at an entry outside hidden folders that is neither a file nor
    /// a folder.
    static func forEachStoryFile(
        listed entries: some Sequence<(path: String, stamp: FileStamp)>, _ visit: (String, FileStamp) -> Void
    ) -> Bool {
        for (path, stamp) in entries {
            let (hidden, storyFile) = path.withUTF8Bytes { (isHidden($0), isStoryFile(path: $0)) }
            if hidden || stamp.isFolder { continue }
            guard stamp.isRegularFile else { return false }
            if storyFile { visit(path, stamp) }
        }
        return true
    }

    /// Whether any component of the relative path `bytes` starts with a dot, as a scan never enters.
    private static func isHidden(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var atStart = true
        for byte in bytes {
            if atStart && byte == UInt8(ascii: ".") { return true }
            atStart = byte == UInt8(ascii: "/")
        }
        return false
    }

    /// Whether the last component of the path `bytes` names a story file (``isStoryFile(named:)``).
    private static func isStoryFile(path bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        return isStoryFile(name: UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    /// The bytes of the file at `path`. `size` is the size a listing just found the file to have,
    /// as a regular file, when there is one: it spares a `stat` of each file a build reads.
    static func contents(of path: String, size listedSize: Int64? = nil) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Failure(path: path) }
        defer { close(descriptor) }
        let size: Int64
        let isRegularFile: Bool
        if let listedSize {
            (size, isRegularFile) = (listedSize, true)
        } else {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw Failure(path: path) }
            (size, isRegularFile) = (Int64(info.st_size), info.st_mode & S_IFMT == S_IFREG)
        }
        // Room for one byte more than the size, so that a file that did not grow is read in
        // one call: a read of a regular file that returns less than asked has met the end
        // (other files are read until a read returns nothing). Not zeroed first: every byte
        // kept was read.
        var failed = false
        var filled = false
        var bytes = [UInt8](unsafeUninitializedCapacity: Int(max(0, size)) + 1) { buffer, count in
            count = 0
            while count < buffer.count {
                let got = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    return
                }
                if got == 0 { return }
                count += got
                if isRegularFile, count < buffer.count { return }
            }
            filled = true
        }
        guard !failed else { throw Failure(path: path) }
        // The file grew since it was measured: the rest, however long.
        while filled {
            var chunk = [UInt8](repeating: 0, count: max(bytes.count, 4096))
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path)
            }
            if got == 0 { break }
            bytes.append(contentsOf: chunk[..<got])
        }
        return bytes
    }

    /// Whether a file of this name is read as a story file: a JSON file, not hidden.
    static func isStoryFile(named name: String) -> Bool {
        name.withUTF8Bytes(isStoryFile(name:))
    }

    /// ``isStoryFile(named:)`` of a name's bytes: more than `.json`, which it ends with in any
    /// case, and no dot first. Bytes, as the file system has them; a lowercased copy of every
    /// name cost a build of 10,000 files 5 million instructions.
    private static func isStoryFile(name bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let suffix = bytes.count - 5
        guard suffix > 0, bytes[0] != UInt8(ascii: "."), bytes[suffix] == UInt8(ascii: ".") else { return false }
        // An ASCII letter's bit 0x20 is its case; no other byte becomes one of these with it set.
        return bytes[suffix + 1] | 0x20 == UInt8(ascii: "j") && bytes[suffix + 2] | 0x20 == UInt8(ascii: "s")
            && bytes[suffix + 3] | 0x20 == UInt8(ascii: "o") && bytes[suffix + 4] | 0x20 == UInt8(ascii: "n")
    }

    private struct FolderIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private static func scan(_ path: String, relative: String, into files: inout [String], seen: inout Set<FolderIdentity>) throws(Failure) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(path: path) }
        guard seen.insert(FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted else { return }
        guard let directory = opendir(path) else { throw Failure(path: path) }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            // Read in place: a record is only as long as its name, so copying the whole
            // fixed-size `d_name` field can run past the end of the directory buffer.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
            }
            if name.hasPrefix(".") { continue }
            let childPath = path + "/" + name
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            var isFolder = Int32(entry.pointee.d_type) == Int32(DT_DIR)
            var isFile = Int32(entry.pointee.d_type) == Int32(DT_REG)
            if !isFolder && !isFile {
                // A symbolic link, or a file system that does not report types.
                var target = stat()
                guard stat(childPath, &target) == 0 else { continue }
                isFolder = target.st_mode & S_IFMT == S_IFDIR
                isFile = target.st_mode & S_IFMT == S_IFREG
            }
            if isFolder {
                try scan(childPath, relative: childRelative, into: &files, seen: &seen)
            } else if isFile, isStoryFile(named: name) {
                files.append(childRelative)
            }
        }
    }
}
