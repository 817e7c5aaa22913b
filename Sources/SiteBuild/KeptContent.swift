import Dispatch
import Foundation
import StoryCrawl
import StorySource

/// What a build keeps of the content for the next build of the same output folder, beside
/// ``BuildCache`` in `<output>/.storysite/`: the heads of its stories (``ParsedFileCache``) and
/// the references found in them (``ReferenceCache``). A rebuild then reads and walks only the
/// files that changed, and the content of the others only where a page it renders shows it.
/// Like the build cache, it only saves time: a missing or corrupt file means a full read.
public struct KeptContent {
    static let filesRelativePath = ".storysite/content-files"
    static let referencesRelativePath = ".storysite/content-references"

    let files: ParsedFileCache
    let references: ReferenceCache

    /// What the last build kept in `output`.
    init(reading output: URL) {
        files = ParsedFileCache.reading(output.appendingPathComponent(Self.filesRelativePath))
        references = ReferenceCache.reading(output.appendingPathComponent(Self.referencesRelativePath))
    }

    /// What the last build kept in `output`, as caches that `serve` keeps in memory from then on:
    /// its first rebuild reads only the files saved since, and it never writes them back.
    public static func servingCaches(from output: URL) -> (files: ParsedFileCache, references: ReferenceCache) {
        (ParsedFileCache.reading(output.appendingPathComponent(filesRelativePath)),
         ReferenceCache.reading(output.appendingPathComponent(referencesRelativePath), writesBack: false))
    }

    /// The bytes of the files to write, encoded on another thread from now on: a build starts
    /// this before it writes its pages, which waits on the disk more than on the processor.
    func encodeInBackground() -> Encoding {
        let encoding = Encoding()
        DispatchQueue.global(qos: .userInitiated).async { [files, references] in
            encoding.finish(files: files.encoded(), references: references.encoded())
        }
        return encoding
    }

    /// Saves what `encoding` made (waiting for it), each file atomically, for the next build; a
    /// file that cannot be written is left out.
    func write(_ encoding: Encoding, in output: URL) {
        let (filesBytes, referencesBytes) = encoding.wait()
        for (bytes, path) in [(filesBytes, Self.filesRelativePath), (referencesBytes, Self.referencesRelativePath)] {
            guard let bytes else { continue }
            let url = output.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(bytes).write(to: url, options: .atomic)
        }
    }

    /// The encoded files, once the background work is done; nil for a file that need not change.
    final class Encoding: @unchecked Sendable {
        // Safe to share: written once before `done` is signalled, read only after it.
        private let done = DispatchSemaphore(value: 0)
        private var bytes: (files: [UInt8]?, references: [UInt8]?) = (nil, nil)

        fileprivate func finish(files: [UInt8]?, references: [UInt8]?) {
            bytes = (files, references)
            done.signal()
        }

        fileprivate func wait() -> (files: [UInt8]?, references: [UInt8]?) {
            done.wait()
            return bytes
        }
    }
}
