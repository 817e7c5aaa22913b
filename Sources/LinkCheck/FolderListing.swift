import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The files and folders under a folder, listed with POSIX calls, by their paths from it as raw
/// bytes (as the host serves them, whatever their Unicode normalisation). Symbolic links are
/// followed, except to a folder that encloses them (a loop). Foundation's enumerator costs more than parsing for 10,000 files.
struct FolderListing: Sendable {
    /// The folder's file-system path, with a trailing `/`.
    private let root: [UInt8]
    private(set) var files: Set<ByteString> = []
    private(set) var folders: Set<ByteString> = []

    init(_ folder: URL) throws {
        root = Array(folder.path.utf8) + (folder.path.hasSuffix("/") ? [] : [UInt8(ascii: "/")])
        var status = stat()
        guard Self.status(of: root, &status), status.st_mode & S_IFMT == S_IFDIR else {
            throw LinkCheckError.notAFolder(folder.path)
        }
        try list([], enclosing: [[]])
    }

    /// The files that are HTML pages (`.html`, `.htm`), in byte order of their paths.
    var pages: [ByteString] {
        files.filter(SiteIndex.isPageName).sorted()
    }

    /// The contents of the file at `path` (from the folder).
    func read(_ path: ByteString) throws -> [UInt8] {
        let descriptor = (root + path.bytes + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) }
        }
        guard descriptor >= 0 else { throw Self.error(path) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.error(path) }
        var contents = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < contents.count {
            let count = contents.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            guard count > 0 else {
                if count < 0, errno == EINTR { continue }
                if count == 0 { break }
                throw Self.error(path)
            }
            filled += count
        }
        contents.removeSubrange(filled...)
        return contents
    }

    /// Lists the folder at `relative` (empty or ending with `/`), whose enclosing folders
    /// (itself included) are `enclosing`.
    private mutating func list(_ relative: [UInt8], enclosing: [[UInt8]]) throws {
        let absolute = root + relative
        guard let directory = (absolute + [0]).withUnsafeBufferPointer({ name in
            name.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }) else {
            throw LinkCheckError.unreadableFolder(String(decoding: absolute, as: UTF8.self), reason: String(cString: strerror(errno)))
        }
        var subfolders: [[UInt8]] = []
        while let entry = readdir(directory) {
            // Read in place: a record is only as long as its name, so copying the whole
            // fixed-size `d_name` field can run past the end of the directory buffer.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: 1) { start in
                    Array(UnsafeRawBufferPointer(start: start, count: strlen(start)))
                }
            }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            let path = relative + name
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG):
                files.insert(ByteString(path))
            case Int32(DT_DIR):
                subfolders.append(path)
            default:
                // A symbolic link (or a file system that does not give types): follow it, but
                // not back into a folder that encloses it.
                var status = stat()
                guard Self.status(of: root + path, &status) else { continue }
                if status.st_mode & S_IFMT != S_IFDIR {
                    files.insert(ByteString(path))
                } else if !enclosing.contains(where: { Self.isSameFolder(status, root + $0) }) {
                    subfolders.append(path)
                }
            }
        }
        closedir(directory)
        for folder in subfolders {
            folders.insert(ByteString(folder))
            let inside = folder + [UInt8(ascii: "/")]
            try list(inside, enclosing: enclosing + [inside])
        }
    }

    private static func isSameFolder(_ status: stat, _ path: [UInt8]) -> Bool {
        var other = stat()
        return Self.status(of: path, &other) && other.st_dev == status.st_dev && other.st_ino == status.st_ino
    }

    /// `stat` (following symbolic links) of a file-system path given as bytes.
    private static func status(of path: [UInt8], _ status: inout stat) -> Bool {
        (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) == 0 }
        }
    }

    private static func error(_ path: ByteString) -> LinkCheckError {
        .unreadableFile(path.description, reason: String(cString: strerror(errno)))
    }
}
