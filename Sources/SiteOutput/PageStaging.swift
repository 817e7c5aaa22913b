import Foundation

/// Where a build's rendered pages go, decided as they come: held in memory while so few have
/// changed that the write may update the output folder in place (which wants their bytes), and
/// into the staging folder (``StagingFolder``) from the page that makes them too many for that
/// on, so that a rebuild that renders most pages again (a template edited) does not hold them
/// all at once, as a first build does not. A write into a folder without a manifest replaces it
/// whole, so its pages go to the staging folder from the first.
public final class PageStaging: @unchecked Sendable {
    // Safe to share: `changed`, `folder` and `opened` are only touched holding the lock.
    private let lock = NSLock()
    private let writer: SiteWriter
    /// How many changed pages the write may still take in place; nil when it replaces the
    /// folder whatever happens.
    private let inPlaceLimit: Int?
    private var changed = 0
    private var opened = false
    private var folder: StagingFolder?

    /// The staging of pages written by `writer` over `previousOutput`; nil when the write will
    /// refuse that folder (``PreviousOutput/problem``), and so should find nothing staged.
    public init?(for writer: SiteWriter, over previousOutput: PreviousOutput) {
        guard previousOutput.problem == nil else { return nil }
        self.writer = writer
        inPlaceLimit = previousOutput.manifest.map { SiteWriter.inPlaceLimit(forFileCount: $0.files.count) }
    }

    /// `file` in memory, or written to the staging folder and without its bytes once more
    /// pages have changed than a write in place takes (see ``StagingFolder/put(_:)``).
    public func put(_ file: OutputFile) -> OutputFile {
        let folder: StagingFolder? = lock.withLock {
            changed += 1
            if !opened, inPlaceLimit.map({ changed > $0 }) ?? true {
                opened = true
                self.folder = StagingFolder(for: writer)
            }
            return self.folder
        }
        return folder?.put(file) ?? file
    }

    /// `file`, held in memory by ``put(_:)`` before the staging folder opened, written there now
    /// and without its bytes: the write that would have taken it in place replaces the folder
    /// instead, and would otherwise hold it (the first tenth of a site's pages) until then. As it
    /// is while the folder is not open.
    public func putHeld(_ file: OutputFile) -> OutputFile {
        guard !file.isStaged, let folder = staged else { return file }
        return folder.put(file)
    }

    /// The staging folder, once opened; nil while every page is held in memory, or when it
    /// could not be made (the write then writes the pages itself).
    public var staged: StagingFolder? {
        lock.withLock { folder }
    }
}
