import Foundation
import ParallelWork
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

    /// What the last build kept in `output`, the link graphs of `languages` (`nil` for a site
    /// without languages) read at once too.
    init(reading output: URL, languages: [String?]) {
        files = ParsedFileCache.reading(output.appendingPathComponent(Self.filesRelativePath))
        references = ReferenceCache.reading(output.appendingPathComponent(Self.referencesRelativePath))
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

    /// The files to write, encoded on other threads from now on: a build starts
    /// this before it writes its pages, which waits on the disk more than on the processor.
    /// The three kinds of file are encoded side by side, and the graph on at most `jobs` threads.
    func encodeInBackground(jobs: Int) -> BackgroundValue<[EncodedFile]> {
        BackgroundValue { [files, references, crawl] in
            let encoders: [() -> [EncodedFile]] = [
                { crawl.encoded(jobs: jobs).map { (Self.graphsRelativePath + "/" + $0.name, $0.file) } },
                { [(Self.filesRelativePath, files.encoded())] },
                { [(Self.referencesRelativePath, references.encoded())] },
            ]
            return ParallelWork.map(count: encoders.count, jobs: encoders.count) { encoders[$0]() }.flatMap { $0 }
        }
    }

    /// A file to write and its path; no bytes for a file that need not change.
    typealias EncodedFile = (path: String, file: FileChunks?)

    /// Saves what `encoding` made (waiting for it), each file atomically, for the next build; a
    /// file that cannot be written is left out.
    func write(_ encoding: BackgroundValue<[EncodedFile]>, in output: URL) {
        for (path, file) in encoding.value {
            guard let file else { continue }
            let url = output.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? file.write(to: url)
        }
    }
}
