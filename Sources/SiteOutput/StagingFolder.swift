import Foundation
import StoryModel

/// The staging folder of a write that replaces the whole output folder (see ``SiteWriter``),
/// opened by ``PageStaging`` before or while the pages are rendered, so that each page goes
/// into it from the thread that rendered it (``put(_:)``) and its bytes are not kept until the
/// write: a build of 100,000 pages would otherwise hold them all at once.
/// ``SiteWriter/write(_:keeping:over:staged:)`` then adds the other files and puts the folder in
/// the output folder's place; a build that does not get that far discards it (``discard()``).
public final class StagingFolder: @unchecked Sendable {
    // Safe to share: `folders`, `statuses` and `failure` are only touched holding the lock.
    private let lock = NSLock()
    /// The staging folder.
    let url: URL
    /// Its path, made once: each page's path is made from it.
    private let root: String
    /// The folders made in it so far, relative to it.
    private var folders: Set<String> = [""]
    /// What `stat` said of each file put, just written, by path.
    private var statuses: [String: FileStatus] = [:]
    /// The first file that could not be put.
    private var failure: (any Error)?

    /// The staging folder of `writer`'s output folder, emptied of what a killed build left;
    /// nil when it cannot be made (the write then reports why).
    init?(for writer: SiteWriter) {
        url = writer.output.storysiteSibling("staging")
        root = url.path
        // Staging only ever holds storysite's files: a leftover from a killed build can go.
        try? FileManager.default.removeItem(at: url)
        guard (try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)) != nil else { return nil }
    }

    /// Writes `file` into the folder and returns it without its bytes. A path storysite would
    /// not write is left for the write to refuse, and a file that cannot be written for the
    /// write to report (``failureMessage``); both come back as they were.
    func put(_ file: OutputFile) -> OutputFile {
        guard SafePath.problem(in: file.path) == nil else { return file }
        do {
            try makeFolder(of: file.path)
            let status = try SiteFileWriter.write(file.contents, to: root + "/" + file.path)
            lock.withLock { statuses[file.path] = status }
            return OutputFile(staged: file)
        } catch {
            lock.withLock { if failure == nil { failure = error } }
            return file
        }
    }

    /// What `stat` said of the file put at `path`, just written; nil when none was.
    func status(of path: String) -> FileStatus? {
        lock.withLock { statuses[path] }
    }

    /// Why a file could not be put; nil when every one was.
    var failureMessage: String? {
        lock.withLock { failure.map { $0.localizedDescription } }
    }

    /// Removes the folder and everything put into it.
    public func discard() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Makes the folder `path` is in, and those above it, unless made already.
    private func makeFolder(of path: String) throws {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return }
        let folder = String(path[..<slash])
        guard !lock.withLock({ folders.contains(folder) }) else { return }
        try SiteFileWriter.createFolder(folder, in: root)
        lock.withLock { _ = folders.insert(folder) }
    }
}
