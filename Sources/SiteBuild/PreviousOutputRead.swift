import SiteOutput

/// The output folder as the last build left it (``SiteOutput/PreviousOutput``), with what a
/// build derives from it. A build reads it in the background (``BackgroundValue``) while it loads
/// and crawls the content and plans its pages: listing the folder is a `stat` of every file, and
/// with its manifest the longest read of a rebuild, and nothing needs it before the pages that
/// can be kept are looked for.
struct PreviousOutputRead: Sendable {
    var output: PreviousOutput
    /// The files still as the last build wrote them (``SiteOutput/PreviousOutput/intactFiles()``).
    var intact: [String: String]
    /// Where rendered pages go; nil when the write will refuse the folder.
    var staging: PageStaging?

    /// The folder `writer` writes, as it is now.
    init(by writer: SiteWriter) {
        output = writer.readPreviousOutput()
        intact = output.intactFiles()
        staging = PageStaging(for: writer, over: output)
    }
}
