/// What changed in one or more bursts of saves that a ``FolderWatcher`` saw.
public struct FolderChanges: Sendable, Equatable {
    /// The absolute paths, spelled as the watched URLs' `path` begins, of the files created,
    /// changed, removed or renamed; nil when the watcher cannot tell which (a folder was created,
    /// removed or moved, events were lost, a watched folder came back): then everything counts as
    /// changed.
    public var paths: Set<String>?

    /// Nothing changed.
    public static let empty = FolderChanges(paths: [])
    /// Changes to files the watcher cannot name: everything counts as changed.
    public static let unknown = FolderChanges(paths: nil)

    /// Changes to the files at `paths`, or to unknown files when nil.
    public init(paths: Set<String>?) {
        self.paths = paths
    }

    /// Whether nothing changed: no paths, and not unknown.
    public var isEmpty: Bool {
        paths?.isEmpty == true
    }

    /// Adds the paths `other` changed; unknown when either is unknown.
    public mutating func merge(_ other: FolderChanges) {
        guard let otherPaths = other.paths else {
            paths = nil
            return
        }
        paths?.formUnion(otherPaths)
    }
}
