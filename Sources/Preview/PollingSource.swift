import Foundation

/// Notices changes by comparing snapshots of every file and folder under the watched folders
/// (those themselves included) and of each watched file (when it exists), taken at a fixed
/// interval: the fallback where inotify is unavailable. A file whose size or modification time
/// changed, or that appeared or went, is reported by its path; a folder that appeared or went
/// (or a file that became one, or the other way round) makes the changes unknown, as for inotify.
final class PollingSource: ChangeSource, @unchecked Sendable {
    /// What a snapshot holds of a path. A folder's modification time changes with any file
    /// created or removed in it, which its files tell already: it is not kept.
    private enum Entry: Equatable {
        case folder
        case file(size: UInt64, modified: Date)
    }

    private let roots: [URL]
    private let files: [URL]
    private let interval: Duration
    private var snapshot: [String: Entry]
    private var lastPoll = ContinuousClock.now

    init(roots: [URL], files: [URL], interval: Duration) {
        self.roots = roots
        self.files = files
        self.interval = interval
        snapshot = Self.snapshot(of: roots, files: files)
    }

    func waitForChange(milliseconds: Int) -> FolderChanges {
        let next = lastPoll + interval
        let waitUntil = min(next, ContinuousClock.now + .milliseconds(milliseconds))
        Thread.sleep(forTimeInterval: max(0, (waitUntil - ContinuousClock.now).seconds))
        guard ContinuousClock.now >= next else { return .empty }
        lastPoll = .now
        let current = Self.snapshot(of: roots, files: files)
        defer { snapshot = current }
        return Self.changes(from: snapshot, to: current)
    }

    func close() {}

    /// The paths whose entries differ between the snapshots; unknown when one is a folder's.
    private static func changes(from old: [String: Entry], to new: [String: Entry]) -> FolderChanges {
        let changed = Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }
        let folderChanged = changed.contains { old[$0] == .folder || new[$0] == .folder }
        return folderChanged ? .unknown : FolderChanges(paths: changed)
    }

    private static func snapshot(of roots: [URL], files: [URL]) -> [String: Entry] {
        var entries: [String: Entry] = [:]
        for root in roots {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue,
                  let enumerator = FileManager.default.enumerator(atPath: root.path) else { continue }
            entries[root.path] = .folder
            for case let relativePath as String in enumerator {
                guard !IgnoredNames.contains((relativePath as NSString).lastPathComponent) else {
                    enumerator.skipDescendants()
                    continue
                }
                let path = root.path + "/" + relativePath
                entries[path] = entry(atPath: path)
            }
        }
        for file in files {
            entries[file.path] = entry(atPath: file.path)
        }
        return entries
    }

    /// What is at `path` now; nil when nothing is.
    private static func entry(atPath path: String) -> Entry? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        if attributes[.type] as? FileAttributeType == .typeDirectory { return .folder }
        return .file(
            size: (attributes[.size] as? NSNumber)?.uint64Value ?? 0,
            modified: attributes[.modificationDate] as? Date ?? .distantPast)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
