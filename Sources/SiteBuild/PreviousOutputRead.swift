import Dispatch
import SiteOutput

/// The output folder as the last build left it (``SiteOutput/PreviousOutput``), read on a
/// thread of its own while the build loads and crawls the content and plans its pages. Listing
/// the folder is a `stat` of every file and reading its manifest, the longest read of a rebuild,
/// and nothing needs it before the pages that can be kept are looked for.
final class PreviousOutputRead: @unchecked Sendable {
    /// What the read found, with what a build derives from it.
    struct Found {
        var output: PreviousOutput
        /// The files still as the last build wrote them (``SiteOutput/PreviousOutput/intactFiles()``).
        var intact: [String: String]
        /// Where rendered pages go; nil when the write will refuse the folder.
        var staging: PageStaging?
    }

    // Safe to share: `found` is written once, before `done` is first signalled, and read only
    // after a wait on it; each wait signals again for the next.
    private let done = DispatchSemaphore(value: 0)
    private var found: Found?

    /// Starts reading the folder `writer` writes.
    init(by writer: SiteWriter) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let output = writer.readPreviousOutput()
            found = Found(output: output, intact: output.intactFiles(), staging: PageStaging(for: writer, over: output))
            done.signal()
        }
    }

    /// What the read found, waiting for it to finish.
    var value: Found {
        done.wait()
        defer { done.signal() }
        return found!
    }
}
