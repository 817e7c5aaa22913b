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
        try list([], enclosing: [FolderIdentity(status)])
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

    private mutating func list(_ relative: [UInt8], enclosing: Set<FolderIdentity>) throws {
        let absolute = root + relative
        guard let directory = (absolute + [0]).withUnsafeBufferPointer({ name in
            name.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }) else {
            throw LinkCheckError.unreadableFolder(String(decoding: absolute, as: UTF8.self), reason: String(cString: strerror(errno)))
        }
        var subfolders: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                Array(bytes.prefix { $0 != 0 })
            }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            let path = relative + name
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG):
                files.insert(ByteString(path))
            case Int32(DT_DIR):
                subfolders.append(path)
            default:
                var status = stat()
                guard Self.status(of: root + path, &status) else { continue }
                if status.st_mode & S_IFMT == S_IFDIR {
                    subfolders.append(path)
                } else {
                    files.insert(ByteString(path))
                }
            }
        }
        closedir(directory)
        for folder in subfolders {
            var status = stat()
            guard Self.status(of: root + folder, &status), !enclosing.contains(FolderIdentity(status)) else { continue }
            folders.insert(ByteString(folder))
            try list(folder + [UInt8(ascii: "/")], enclosing: enclosing.union([FolderIdentity(status)]))
        }
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

    /// A folder's device and inode, to recognise a symbolic link back to an enclosing folder.
    private struct FolderIdentity: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }
}
