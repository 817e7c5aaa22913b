import Foundation
import StoryCrawl
import StoryModel
import StorySource

/// What a build keeps of the content for the next build of the same output folder, beside
/// ``BuildCache`` in `<output>/.storysite/`: the heads of its stories (``ParsedFileCache``), the
/// references found in them (``ReferenceCache``) and the link graph of its crawl
/// (``CrawlMemory``). A rebuild then reads and walks only the files that changed, crawls only
/// when a change moved an edge, and reads the content of the others only where a page it
/// renders shows it.
/// Like the build cache, it only saves time: a missing or corrupt file means a full read.
public struct KeptContent {
    static let filesRelativePath = ".storysite/content-files"
    static let referencesRelativePath = ".storysite/content-references"
    /// The folder of the link graphs (see ``CrawlMemory/fileName(of:)``).
    static let graphsRelativePath = ".storysite"

    let files: ParsedFileCache
    let references: ReferenceCache
    let crawl: CrawlMemory
    /// Where the reference cache's records and the parsed files' encoding wait until their
    /// files are written, rather than in memory (at 100,000 stories, 57 MB held from the crawl
    /// to the end, and 30 MB more while the pages are written): a file without a name beside
    /// the output folder (see ``StoryModel/TapeStore``). A large folder's content waits there too.
    let parking: TapeStore?

    /// What the last build kept in `output`, the link graphs of `languages` (`nil` for a site
    /// without languages) read at once too. With `parksContent`, the content of the stories kept
    /// waits in ``parking`` too once read from their files (a large folder's, see
    /// ``SiteGenerator/contentKeptInMemory``).
    init(reading output: URL, languages: [String?], parksContent: Bool = false) {
        parking = TapeStore.beside(output)
        files = ParsedFileCache.reading(
            output.appendingPathComponent(Self.filesRelativePath), parkingContentIn: parksContent ? parking : nil)
        references = ReferenceCache.reading(output.appendingPathComponent(Self.referencesRelativePath), parking: parking)
        crawl = CrawlMemory(keptIn: output.appendingPathComponent(Self.graphsRelativePath))
        crawl.readKeptGraphs(of: languages)
    }

    /// What the last build kept in `output`, as caches that `serve` keeps in memory from then on:
    /// its first rebuild reads only the files saved since, crawls only when they moved an edge,
    /// and it never writes them back.
    public static func servingCaches(from output: URL) -> (files: ParsedFileCache, references: ReferenceCache, crawl: CrawlMemory) {
        (ParsedFileCache.reading(output.appendingPathComponent(filesRelativePath)),
         ReferenceCache.reading(output.appendingPathComponent(referencesRelativePath), writesBack: false),
         CrawlMemory(keptIn: output.appendingPathComponent(graphsRelativePath)))
    }

    /// The files to write, made from now on on another thread, one after the other, each written
    /// into `folder` (beside the output folder, on its file system) as soon as it is made and let
    /// go of: at 100,000 stories the three hold 130 MB, which a build that held them until its
    /// pages were written had at its peak. A build starts this before it writes its pages, and
    /// puts the files in place after (``place(_:in:)``) or lets them go (``discard(_:)``).
    func encodeInBackground(into folder: URL) -> BackgroundValue<Encoded> {
        BackgroundValue { [files, references, crawl, parking] in
            var encoded = Encoded(folder: folder)
            // A folder a killed build left holds nothing of use.
            try? FileManager.default.removeItem(at: folder)
            guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return encoded }
            let encoders: [() -> [(path: String, file: FileChunks?)]] = [
                { crawl.encoded().map { (Self.graphsRelativePath + "/" + $0.name, $0.file) } },
                { [(Self.filesRelativePath, files.encoded(parking: parking))] },
                { [(Self.referencesRelativePath, references.encoded())] },
            ]
            for encode in encoders {
                for (path, file) in encode() {
                    guard let file else { continue }
                    let written = folder.appendingPathComponent(String(encoded.files.count))
                    if (try? file.write(to: written)) != nil { encoded.files.append((path, written)) }
                }
            }
            return encoded
        }
    }

    /// The files a build made of what it keeps, written into a folder of their own.
    struct Encoded {
        let folder: URL
        /// Each file's path in the output folder, and where it was written; none for a file
        /// that need not change.
        var files: [(path: String, written: URL)] = []
    }

    /// Puts the files `encoding` made (waiting for it) in their places in `output`, each
    /// replacing the one there at once; a file that cannot be moved is left out.
    static func place(_ encoding: BackgroundValue<Encoded>, in output: URL) {
        let encoded = encoding.value
        for (path, written) in encoded.files {
            let url = output.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            rename(written.path, url.path)
        }
        try? FileManager.default.removeItem(at: encoded.folder)
    }

    /// Removes the files `encoding` made (once it has), for a build that wrote no site.
    static func discard(_ encoding: BackgroundValue<Encoded>) {
        try? FileManager.default.removeItem(at: encoding.value.folder)
    }
}
