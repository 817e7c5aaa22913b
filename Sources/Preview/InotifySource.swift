#if canImport(Glibc)
import Foundation
import Glibc

/// Linux's inotify on every folder under the watched ones (a folder created later is watched as
/// soon as its creation is seen, one moved away no longer), and on the folder of each watched file,
/// where only events naming that file count: editors that save by renaming a temporary file over
/// it are seen too. A file's event reports its path; an event on a folder, lost events, and a
/// watched folder deleted or moved away report unknown changes. A watched folder that is missing,
/// deleted or moved away is watched again, and reported as unknown changes, as soon as a folder is
/// back at its path.
final class InotifySource: ChangeSource, @unchecked Sendable {
    private static let mask = UInt32(
        IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB)

    private let descriptor: Int32
    /// The watched trees' folders, by watch.
    private var folders: [Int32: String] = [:]
    /// The paths of the watched files, by the watch on their folder and by name.
    private var filePaths: [Int32: [String: String]] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// The watched folders' paths, and each one's watch while a folder is there.
    private var roots: [(path: String, watch: Int32?)]

    /// Watches every folder under `roots` and the folder of each of `files`; nil when inotify
    /// is unavailable or out of watches.
    init?(roots: [URL], files: [URL]) {
        self.roots = roots.map { ($0.path, nil) }
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard watchReturnedRoots() != nil, files.allSatisfy(watchFile) else {
            Glibc.close(descriptor)
            return nil
        }
    }

    func waitForChange(milliseconds: Int) -> FolderChanges {
        // A folder back at a watched path is new to the build, contents and all.
        var changes = (watchReturnedRoots() ?? 0) > 0 ? FolderChanges.unknown : .empty
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(milliseconds)) > 0 else { return changes }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            handleEvents(count: count, into: &changes)
        }
        return changes
    }

    func close() {
        Glibc.close(descriptor)
    }

    /// Reads `count` bytes of events from the buffer, and adds the changes they mean to `changes`.
    private func handleEvents(count: Int, into changes: inout FolderChanges) {
        var offset = 0
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= count {
            let (watch, mask, length) = buffer.withUnsafeBytes { bytes in
                (bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                 bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                 Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
            }
            let nameBytes = buffer[(offset + headerSize)..<(offset + headerSize + length)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            offset += headerSize + length
            if mask & UInt32(IN_IGNORED) != 0 {
                folders[watch] = nil
                filePaths[watch] = nil
                continue
            }
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0, let root = roots.firstIndex(where: { $0.watch == watch }) {
                forgetTree(roots[root].path)
                roots[root].watch = nil
                changes = .unknown
                continue
            }
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                changes = .unknown
                continue
            }
            if let file = filePaths[watch]?[name] {
                changes.merge(FolderChanges(paths: [file]))
                continue
            }
            guard let folder = folders[watch], !IgnoredNames.contains(name) else { continue }
            let path = folder + "/" + name
            // An event without a name is about the watched folder itself.
            if mask & UInt32(IN_ISDIR) != 0 || name.isEmpty {
                changes = .unknown
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    _ = watchTree(path)
                } else if mask & UInt32(IN_MOVED_FROM) != 0 {
                    forgetTree(path)
                }
            } else {
                changes.merge(FolderChanges(paths: [path]))
            }
        }
    }

    /// Watches each root that has no watch and is a folder now; the number of roots watched
    /// anew, or nil when a watch cannot be added.
    private func watchReturnedRoots() -> Int? {
        var watched = 0
        for index in roots.indices where roots[index].watch == nil {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: roots[index].path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            guard watchTree(roots[index].path) else { return nil }
            roots[index].watch = folders.first { $0.value == roots[index].path }?.key
            watched += 1
        }
        return watched
    }

    /// Stops watching `path` and the folders under it: a tree moved elsewhere would otherwise
    /// go on reporting its changes under its old paths.
    private func forgetTree(_ path: String) {
        for (watch, folder) in folders where folder == path || folder.hasPrefix(path + "/") {
            inotify_rm_watch(descriptor, watch)
            folders[watch] = nil
        }
    }

    /// Watches the folder of `file`, without its sub-folders, for events naming `file`; false
    /// when the watch cannot be added.
    private func watchFile(_ file: URL) -> Bool {
        let watch = inotify_add_watch(descriptor, file.deletingLastPathComponent().path, Self.mask)
        guard watch >= 0 else { return errno == ENOENT }
        filePaths[watch, default: [:]][file.lastPathComponent] = file.path
        return true
    }

    /// Watches `path` and every folder under it; false when a watch cannot be added.
    private func watchTree(_ path: String) -> Bool {
        let watch = inotify_add_watch(descriptor, path, Self.mask)
        guard watch >= 0 else { return errno == ENOENT }
        folders[watch] = path
        guard let children = try? FileManager.default.contentsOfDirectory(atPath: path) else { return true }
        for child in children where !IgnoredNames.contains(child) {
            var isFolder: ObjCBool = false
            let childPath = path + "/" + child
            if FileManager.default.fileExists(atPath: childPath, isDirectory: &isFolder), isFolder.boolValue,
               !watchTree(childPath) {
                return false
            }
        }
        return true
    }
}
#endif
