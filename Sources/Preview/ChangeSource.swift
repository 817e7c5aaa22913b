/// Something that notices changes under a set of folders and to single files: inotify, or
/// polling where that fails.
/// Each is created for one watcher and then used only by that watcher's thread.
protocol ChangeSource: AnyObject, Sendable {
    /// Blocks up to `milliseconds` and tells what relevant changed meanwhile: empty when nothing.
    func waitForChange(milliseconds: Int) -> FolderChanges
    /// Releases what the source holds.
    func close()
}

/// Names of editors' temporary and backup files, whose changes never mean a save.
enum IgnoredNames {
    static func contains(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx") || name == "4913"
    }
}
