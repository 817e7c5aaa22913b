import Foundation
import StoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The parsed files of a content folder, kept from one load to the next so that a file whose
/// `stat` is unchanged (size, modification and change times, inode) is not read again: `serve`
/// rebuilds on every save, and re-parsing ten thousand stories for one edit would cost more
/// than the rest of the rebuild.
///
/// A cache can also be kept on disk between runs (``reading(_:)``, ``encoded()``): then each
/// file that holds one story is remembered by its story's head (every key but `content`), the
/// digest of its bytes and those of its translations (``StoryModel/TranslationDigests``), and
/// the story's content is read from the file only when something asks for it (see ``StoryModel/Story/init(head:digest:translationDigests:parkingIn:whole:)``). A file that changed by then
/// reads as nothing and is listed in ``filesChangedSinceLoad``: the build that loaded it must
/// fail rather than mix two versions of a story.
public final class ParsedFileCache: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var files: [String: Kept] = [:]
    /// The files a deferred story found changed.
    private let changedFiles = ChangedFiles()
    /// Whether ``files`` differs from what the cache file holds.
    private var differsFromDisk = true
    /// The cache file as read, and a writer that continues it: the records of files unchanged
    /// since are copied from it as they are.
    private var disk: Disk?
    /// Whether the files kept are those the cache file holds, only those at the places of
    /// ``renewed`` read again since (a load that added or removed none).
    private var keepsFilesRead = true
    /// The places in the cache file of the files read again since it was read.
    private var renewed: Set<Int> = []
    /// The places in the cache file of the stories whose translations were found to have more
    /// digests than it holds: their records are out of date.
    private let translationsFound = TranslationsFound()
    /// The stories the files read again by the latest load held before it, by UUID.
    private var earlier: [String: Story] = [:]

    /// A cache file read, continued by the next one written.
    private struct Disk {
        let bytes: Data
        let writer: ByteRecordWriter
        /// Each record's bytes, and the path it is of, by its place in the file.
        let records: [Range<Int>]
        let paths: [String]
    }

    fileprivate struct Kept {
        var stamp: Stamp
        var file: StoryFile
        /// Where its record is in ``disk``, for a file unchanged since the cache file was read.
        var record: Range<Int>?
        /// The place of its path's record in the cache file read, for a path that file holds:
        /// the file holds its records in the byte order of their paths.
        var ordinal: Int?
    }

    public init() {}

    /// What `stat` says of a file, enough to tell that it has not changed.
    struct Stamp: Equatable {
        var size: Int64
        var modified: Int64
        var changed: Int64
        var inode: UInt64

        /// The stamp of the file at `path`; nil when it cannot be read.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(info)
        }

        /// The stamp of a file `stat` (or, for a regular file, `lstat`) said `info` of.
        init(_ info: stat) {
            self.init(FileStamp(info))
        }

        /// The stamp of a file a listing found as `stamp`.
        init(_ stamp: FileStamp) {
            self.init(size: stamp.size, modified: stamp.modified, changed: stamp.changed, inode: stamp.inode)
        }

        init(size: Int64, modified: Int64, changed: Int64, inode: UInt64) {
            self.size = size
            self.modified = modified
            self.changed = changed
            self.inode = inode
        }
    }

    /// The files as kept now, to be looked up by a load on many threads without taking the
    /// lock for each. Let go of it before ``keep(_:)``, which would otherwise copy them all.
    func lookup() -> Lookup {
        lock.withLock { Lookup(files: files) }
    }

    /// The kept files as ``lookup()`` found them.
    struct Lookup: @unchecked Sendable {
        // Safe to share: a copy of the dictionary, never changed.
        fileprivate let files: [String: Kept]

        /// The file parsed at `path` when it was last loaded, if it has not changed since.
        func file(at path: String, stamp: Stamp) -> StoryFile? {
            guard let cached = files[path], cached.stamp == stamp else { return nil }
            return cached.file
        }
    }

    /// One file of a load: where it is, its stamp, the file, and whether that is the one kept.
    struct Loaded {
        var path: String
        var stamp: Stamp
        var file: StoryFile
        var wasKept: Bool
    }

    /// Replaces what is kept with the files of the latest load, forgetting files that are gone,
    /// and starts a new list of ``filesChangedSinceLoad``. A load of the same paths (an edit,
    /// not an addition or a removal) changes only the entries of the files it read again.
    func keep(_ loaded: [Loaded]) {
        changedFiles.clear()
        lock.withLock {
            let read = loaded.filter { !$0.wasKept }
            earlier = [:]
            for item in read {
                for entry in (files[item.path]?.file).map({ $0.stories + $0.related }) ?? [] where earlier[entry.story.uuid] == nil {
                    earlier[entry.story.uuid] = entry.story
                }
            }
            // Every path kept before is among the loaded ones: the counts match and the new reads
            // replace kept paths (the rest were kept, so are there).
            if loaded.count == files.count, read.allSatisfy({ files[$0.path] != nil }) {
                for item in read {
                    let ordinal = files[item.path]?.ordinal
                    files[item.path] = Kept(stamp: item.stamp, file: item.file, record: nil, ordinal: ordinal)
                    if let ordinal { renewed.insert(ordinal) } else { keepsFilesRead = false }
                }
                if !read.isEmpty { differsFromDisk = true }
                return
            }
            keepsFilesRead = false
            var next: [String: Kept] = [:]
            next.reserveCapacity(loaded.count)
            for item in loaded {
                let kept = files[item.path]
                next[item.path] = Kept(
                    stamp: item.stamp, file: item.file, record: item.wasKept ? kept?.record : nil, ordinal: kept?.ordinal)
            }
            differsFromDisk = true
            files = next
        }
    }

    /// The versions of the stories, by UUID, that the cache held of the files the latest load
    /// read again (those whose `stat` changed): they tell what an edit changed (see
    /// `ContentEdit` in SiteBuild). Empty when the load read none again that the cache held.
    public var earlierVersions: [String: Story] {
        lock.withLock { earlier }
    }

    /// The content files that changed between the latest load and the reading of their content,
    /// as shown in messages, in the order found.
    public var filesChangedSinceLoad: [String] {
        changedFiles.files
    }

    // MARK: On disk

    /// Version 5: a file's digest hashes it in four lanes (``StoryModel/Fingerprint``); read with
    /// the digests of version 4, every kept story would find its file changed since the load.
    private static let magic = "storysite parsed files 5\n"

    /// The cache a build kept in the file at `url` (``encoded()``); an empty cache when the file is
    /// missing, unreadable, corrupt or of another version. With `store`, each story's content,
    /// once read from its file, waits there rather than in memory (see ``StoryModel/TapeStore``).
    public static func reading(_ url: URL, parkingContentIn store: TapeStore? = nil) -> ParsedFileCache {
        let cache = ParsedFileCache()
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped) else { return cache }
        let read = data.withUnsafeBytes { buffer in cache.records(in: buffer, of: data, parkingContentIn: store) }
        if let (files, records, writer) = read {
            cache.files = files
            cache.differsFromDisk = false
            cache.disk = writer.map { Disk(bytes: data, writer: $0, records: records.map(\.range), paths: records.map(\.path)) }
        }
        return cache
    }

    /// The cache file's bytes: the files that hold one story, each as its head, its digest and
    /// those of its translations; nil when they are what the cache file held when read. The
    /// records of files unchanged since are copied from that file, so a rebuild after one edit
    /// encodes one record. With `parking`, the file's pieces wait there, not in memory, until
    /// it is written (see ``StoryModel/ByteRecordWriter/parking``).
    public func encoded(parking: TapeStore? = nil) -> FileChunks? {
        lock.withLock {
            if let disk, keepsFilesRead { return encoded(over: disk, parking: parking) }
            let kept = files.compactMap { path, item in
                Self.persistable(item.file).map { entry in
                    // A record that lacks translations found since is out of date.
                    (path: path, stamp: item.stamp, entry: entry, record: entry.story.translationDigests.foundMore ? nil : item.record,
                     ordinal: item.ordinal)
                }
            }
            guard differsFromDisk || kept.contains(where: { $0.record == nil }) else { return nil }
            var writer = disk?.writer ?? ByteRecordWriter(magic: Self.magic)
            writer.parking = parking
            writer.number(kept.count)
            // In the byte order of the paths: the order of the file read when it holds every one
            // (a rebuild that added no file), each put at its place there rather than sorted (a
            // sort by closure over 100,000 records was 7% of a one-story rebuild's time).
            let ordinals = kept.compactMap(\.ordinal)
            let order = ordinals.count == kept.count ? Self.indicesInOrder(of: ordinals) : ByteOrder.order(of: kept.map(\.path))
            for item in order.lazy.map({ kept[$0] }) {
                writer.beginRecord()
                if let disk, let record = item.record {
                    writer.append(record: record, of: disk.bytes)
                } else {
                    Self.writeRecord(path: item.path, stamp: item.stamp, entry: item.entry, into: &writer)
                }
            }
            return writer.file
        }
    }

    /// ``encoded(parking:)`` of a cache whose files are those of the file read, `disk`, some of
    /// them read again: their records, and those of stories that found more translations, are
    /// encoded again; each run of records between them is written as it is in `disk`, from its
    /// mapping. Asking every story about its translations, and copying every record on its own,
    /// cost a one-story rebuild of 10,000 pages 4% of its time.
    private func encoded(over disk: Disk, parking: TapeStore?) -> FileChunks? {
        let encodedAgain = renewed.union(translationsFound.tags).sorted()
        guard !encodedAgain.isEmpty else { return nil }
        let entries = encodedAgain.map { files[disk.paths[$0]].flatMap { item in Self.persistable(item.file).map { (item.stamp, $0) } } }
        var writer = disk.writer
        writer.parking = parking
        writer.number(disk.records.count - entries.count { $0 == nil })
        writer.append(
            records: disk.records[0].lowerBound..<disk.records[disk.records.count - 1].upperBound, of: disk.bytes,
            replacing: encodedAgain.map { disk.records[$0] }
        ) { writer, index in
            guard let (stamp, entry) = entries[index] else { return }
            writer.beginRecord()
            Self.writeRecord(path: disk.paths[encodedAgain[index]], stamp: stamp, entry: entry, into: &writer)
        }
        return writer.file
    }

    /// The indices of `ordinals`, distinct places in the file read, in the order of those places.
    static func indicesInOrder(of ordinals: [Int]) -> [Int] {
        var byPlace = [Int](repeating: -1, count: (ordinals.max() ?? -1) + 1)
        for (index, ordinal) in ordinals.enumerated() { byPlace[ordinal] = index }
        return byPlace.filter { $0 >= 0 }
    }

    /// The entry of a file that holds one story with its file's digest and nothing wrong.
    private static func persistable(_ file: StoryFile) -> StoryFile.Entry? {
        guard file.stories.count == 1, file.related.isEmpty, file.problems.isEmpty, file.stories[0].origin.entry == nil,
              file.stories[0].story.givenDigest != nil else { return nil }
        return file.stories[0]
    }

    /// One file's record. What is the file's own (its paths, its digest, its story's UUID and
    /// name) is written in place; the table holds what files share (keys, translation keys).
    private static func writeRecord(path: String, stamp: Stamp, entry: StoryFile.Entry, into writer: inout ByteRecordWriter) {
        writer.inlineString(path)
        writer.inlineString(entry.origin.file)
        writer.number(UInt64(bitPattern: stamp.size))
        writer.number(UInt64(bitPattern: stamp.modified))
        writer.number(UInt64(bitPattern: stamp.changed))
        writer.number(stamp.inode)
        writer.inlineString(entry.story.givenDigest ?? "")
        writer.json(.object(entry.story.head), inlineStrings: true)
        let translations = entry.story.translationDigests.all.sorted { $0.key < $1.key }
        writer.number(translations.count)
        for (key, digest) in translations {
            writer.string(key)
            writer.inlineString(digest)
        }
    }

    /// The records of a cache file, each a file holding one deferred story, and a writer to
    /// continue the file (nil when it is time to write it whole); nil when any record cannot be read.
    private func records(
        in buffer: UnsafeRawBufferPointer, of file: Data, parkingContentIn store: TapeStore?
    ) -> ([String: Kept], [(path: String, range: Range<Int>)], ByteRecordWriter?)? {
        guard var reader = ByteRecordReader(buffer, magic: Self.magic), let count = reader.count() else { return nil }
        var files: [String: Kept] = [:]
        files.reserveCapacity(count)
        var records: [(path: String, range: Range<Int>)] = []
        records.reserveCapacity(count)
        let heads = KeptHead.Reader(table: reader.table)
        for ordinal in 0..<count {
            let start = reader.offset
            guard let path = reader.inlineString(), let shown = reader.inlineString(),
                  let size = reader.number(), let modified = reader.number(), let statusChanged = reader.number(),
                  let inode = reader.number(), let digest = reader.inlineString(), let head = heads.read(&reader, in: file),
                  let translations = Self.translationDigests(from: &reader),
                  let story = try? Story(
                      keptHead: head, digest: digest, translationDigests: translations, reporting: (translationsFound, ordinal), parkingIn: store,
                      whole: { [changedFiles] in
                      Self.wholeStory(at: path, shownAs: shown, digest: digest, changed: changedFiles)
                  })
            else { return nil }
            let stamp = Stamp(
                size: Int64(bitPattern: size), modified: Int64(bitPattern: modified), changed: Int64(bitPattern: statusChanged), inode: inode)
            let file = StoryFile(single: StoryFile.Entry(story: story, origin: StoryOrigin(file: shown, entry: nil)))
            files[path] = Kept(stamp: stamp, file: file, record: start..<reader.offset, ordinal: ordinal)
            records.append((path, start..<reader.offset))
        }
        guard reader.isAtEnd else { return nil }
        return (files, records, reader.isWorthContinuing ? ByteRecordWriter(magic: Self.magic, continuing: reader) : nil)
    }

    /// The digests of a story's translations, by key, as ``writeRecord(path:stamp:entry:into:)`` wrote them.
    private static func translationDigests(from reader: inout ByteRecordReader) -> [String: String]? {
        guard let count = reader.count() else { return nil }
        var digests: [String: String] = [:]
        for _ in 0..<count {
            guard let key = reader.string(), let digest = reader.inlineString() else { return nil }
            digests[key] = digest
        }
        return digests
    }

    /// The tape of the file at `path`, read again for a deferred story, and the index of its
    /// story object, when its bytes still have `digest`; otherwise nil, and the file is listed
    /// as changed.
    private static func wholeStory(
        at path: String, shownAs shown: String, digest: String, changed: ChangedFiles
    ) -> (tape: JSONTape, object: Int)? {
        if let bytes = try? FolderScan.contents(of: path), StoryFile.digest(of: bytes) == digest, let tape = try? JSONTape(parsing: bytes),
           let story = tape.withReader({ StoryFile.singleStory(in: $0) }) {
            return (tape, story)
        }
        changed.add(shown)
        return nil
    }
}

/// The files deferred stories found changed when they read them, as shown in messages.
private final class ChangedFiles: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var found: [String] = []

    var files: [String] { lock.withLock { found } }

    func add(_ file: String) {
        lock.withLock { found.append(file) }
    }

    func clear() {
        lock.withLock { found = [] }
    }
}
