import Foundation

/// Notices changes by comparing snapshots (path, size, modification time) of every file under
/// the watched folders and of each watched file (when it exists), taken at a fixed interval: the
/// fallback where inotify is unavailable.
final class PollingSource: ChangeSource, @unchecked Sendable {
    private struct Entry: Equatable {
        var size: UInt64
        var modified: Date
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

    func waitForChange(milliseconds: Int) -> Bool {
        let next = lastPoll + interval
        let waitUntil = min(next, ContinuousClock.now + .milliseconds(milliseconds))
        Thread.sleep(forTimeInterval: max(0, (waitUntil - ContinuousClock.now).seconds))
        guard ContinuousClock.now >= next else { return false }
        lastPoll = .now
        let current = Self.snapshot(of: roots, files: files)
        defer { snapshot = current }
        return current != snapshot
    }

    func close() {}

    private static func snapshot(of roots: [URL], files: [URL]) -> [String: Entry] {
        var entries: [String: Entry] = [:]
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isDirectoryKey]
        for root in roots {
            guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else { continue }
            for case let url as URL in enumerator {
                guard !IgnoredNames.contains(url.lastPathComponent) else {
                    enumerator.skipDescendants()
                    continue
                }
                let values = try? url.resourceValues(forKeys: Set(keys))
                entries[url.path] = Entry(
                    size: UInt64(values?.fileSize ?? 0), modified: values?.contentModificationDate ?? .distantPast)
            }
        }
        for file in files {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path) else { continue }
            entries[file.path] = Entry(
                size: (attributes[.size] as? NSNumber)?.uint64Value ?? 0,
                modified: attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return entries
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
