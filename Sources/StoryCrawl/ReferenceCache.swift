import Foundation
import StoryModel

/// The references found in stories, by the digest of the file each story was read from: a
/// rebuild extracts references only from the stories that changed, and an unchanged story's
/// content need not even be read (see ``StoryModel/Story/init(head:digest:translationDigests:parkingIn:whole:)``).
///
/// `serve` keeps one in memory between rebuilds. A build reads one from disk and writes the
/// next (``reading(_:writesBack:)``, ``encoded()``); it encodes what it finds as it finds it, rather than
/// keeping every story's references until the end. The file written holds the stories of the
/// latest crawl from each root alone, in the order found.
///
/// References depend on the base URL and the root story's slug as well as on the content, so
/// the cache holds those of each pair apart: a site whose languages have roots of their own
/// (`en/home`, `de/home`) crawls them one after the other, each from its own. Only stories with
/// a file digest and without embedded stories are kept.
public final class ReferenceCache: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    /// The pair asked for last, and what is kept for it.
    private var context: Context?
    private var current: Pair
    /// What is kept for every other pair.
    private var others: [Context: Pair] = [:]
    /// Whether this cache is written to disk (``encoded()``).
    private let persisting: Bool
    /// The pairs of the file read, in its order: the file written is the same when these are
    /// the pairs asked for and none of them changed.
    private var pairsRead: [Context] = []
    /// Where the shards' records wait from the crawl that finds them to the cache's file (see
    /// ``ByteRecordWriter/parking``); nil to hold them in memory.
    private let parking: TapeStore?

    private struct Context: Hashable, Comparable {
        var baseURL: String?
        var rootSlug: String

        static func < (lhs: Context, rhs: Context) -> Bool {
            (lhs.rootSlug, lhs.baseURL ?? "") < (rhs.rootSlug, rhs.baseURL ?? "")
        }
    }

    /// What the cache keeps for one pair of base URL and root slug.
    private struct Pair {
        /// Kept from earlier crawls: found in memory (`serve`), or read from a shard's file when first asked for.
        var stored: [String: [ExtractedReference]] = [:]
        /// The pair's records by digest (see ``ReferenceCache/shard(of:)``), each shard with its
        /// part of the file as read and its writer.
        var shards: [Shard]
        /// For a cache written to disk: the latest crawl's stories, those kept (in ``stored`` or
        /// a shard's file) by digest and the others already encoded in their shard's writer.
        var storedUsed: Set<String> = []
        var encodedDigests: Set<String> = []
        /// Whether the file written keeps every record of the pair's part of the file read but
        /// those of ``stale`` digests, rather than only those of ``storedUsed`` (see
        /// ``ReferenceCache/keepAll(except:baseURL:rootSlug:)``).
        var keepsAllRead = false
        /// The digests of the earlier versions of stories that changed or are gone.
        var stale: Set<String> = []
        /// Whether a crawl asked for the pair since the cache was made: only those are written.
        var isAsked = false

        init(parking: TapeStore?) {
            shards = (0..<ReferenceCache.shardCount).map { _ in Shard(parking: parking) }
        }

        /// Where the references kept for `digest` are.
        func kept(_ digest: String) -> Kept? {
            if let found = stored[digest] { return .read(found) }
            return shards[ReferenceCache.shard(of: digest)].file.flatMap { file in file.records[digest].map { .record(file, $0) } }
        }

        /// How many records the pair's part of the file held.
        var recordsRead: Int { shards.reduce(0) { $0 + ($1.file?.records.count ?? 0) } }

        /// The digests of the records of the file read that the file written leaves out, with
        /// ``keepsAllRead``: those of stale stories not asked for again, and those encoded again.
        var dropped: Set<String> {
            stale.subtracting(storedUsed).union(encodedDigests).filter { digest in
                shards[ReferenceCache.shard(of: digest)].file?.records[digest] != nil
            }
        }

        /// Whether the file written holds the records of the file read, no more and no fewer.
        var isAsRead: Bool {
            encodedDigests.isEmpty && (keepsAllRead ? dropped.isEmpty : storedUsed.count == recordsRead)
        }

        /// The digests whose records the file written holds, besides those encoded since.
        var written: Set<String> {
            guard keepsAllRead else { return storedUsed.subtracting(encodedDigests) }
            var read = Set<String>()
            for shard in shards { if let file = shard.file { read.formUnion(file.records.keys) } }
            return read.union(storedUsed).subtracting(dropped).subtracting(encodedDigests)
        }
    }

    /// The records of one shard of a pair: its part of the cache file as read, and those the
    /// latest crawl encoded for the next file. A crawl encodes on every thread, each record
    /// holding only its shard's lock, so that the threads seldom wait for each other.
    private final class Shard: @unchecked Sendable {
        // Safe to share: `writer` is only touched holding `lock`; `file` is set before the cache is shared.
        let lock = NSLock()
        var writer: ByteRecordWriter
        let file: KeptFile?

        init(writer: ByteRecordWriter = ByteRecordWriter(magic: ReferenceCache.shardMagic), file: KeptFile? = nil, parking: TapeStore?) {
            self.writer = writer
            self.writer.parking = parking
            self.file = file
        }
    }

    /// How many shards a pair's records are spread over: enough that two or four threads seldom
    /// wait for one lock, few because each shard's string table repeats strings the others hold.
    static let shardCount = 4

    /// The shard of the story whose file had `digest`: the same from one build to the next, so
    /// that a shard's unchanged records are copied into the writer that continues its table.
    static func shard(of digest: String) -> Int {
        Int(digest.utf8.reduce(UInt32(0)) { $0 &* 31 &+ UInt32($1) } % UInt32(shardCount))
    }

    /// A cache file's part for one shard of a pair, as read: the file's bytes and where the part
    /// is in them, its string table, and where each story's record is. Every range is of the
    /// whole file, which the shards share: copying each part out cost a rebuild 5.6 MB of fresh
    /// memory at 10,000 stories.
    private struct KeptFile {
        var bytes: Data
        var part: Range<Int>
        var table: ByteRecordTable
        var records: [String: Range<Int>]
        /// Where the records are, one after the other.
        var recordsRange: Range<Int>
        /// Whether the shard's writer continues this part's table, so that its records are copied as they are.
        var isContinued: Bool
    }

    /// Where the references kept for a digest are: read already, or in the file.
    private enum Kept {
        case read([ExtractedReference])
        case record(KeptFile, Range<Int>)
    }

    /// An empty cache, kept in memory.
    public init() {
        persisting = false
        parking = nil
        current = Pair(parking: nil)
    }

    private init(persisting: Bool, parking: TapeStore?) {
        self.persisting = persisting
        self.parking = parking
        current = Pair(parking: parking)
    }

    /// The references in `story`: those kept for its digest, or `extract`'s, which are kept.
    func references(
        in story: Story, baseURL: String?, rootSlug: String, extract: () -> [ExtractedReference]
    ) -> [ExtractedReference] {
        guard let digest = story.givenDigest else { return extract() }
        let asked = Context(baseURL: baseURL, rootSlug: rootSlug)
        let kept: Kept? = lock.withLock {
            switchLocked(to: asked)
            guard let found = current.kept(digest) else { return nil }
            if persisting { current.storedUsed.insert(digest) }
            return found
        }
        if let kept, let references = read(kept, digest: digest, context: asked) { return references }
        let found = extract()
        guard !found.contains(where: { $0.embeddedStory != nil }) else { return found }
        let shard: Shard? = lock.withLock {
            guard context == asked else { return nil }
            if !persisting {
                current.stored[digest] = found
                return nil
            }
            return current.encodedDigests.insert(digest).inserted ? current.shards[Self.shard(of: digest)] : nil
        }
        if let shard { shard.lock.withLock { Self.write(digest: digest, references: found, into: &shard.writer) } }
        return found
    }

    /// The references kept for a story whose file had `digest`, found with `baseURL` and
    /// `rootSlug`; nil when none are kept.
    func kept(forDigest digest: String, baseURL: String?, rootSlug: String) -> [ExtractedReference]? {
        let asked = Context(baseURL: baseURL, rootSlug: rootSlug)
        return lock.withLock { context == asked ? current.kept(digest) : others[asked]?.kept(digest) }
            .flatMap { read($0, digest: digest, context: asked) }
    }

    /// Keeps in the file written every record the file read holds for `baseURL` and `rootSlug`
    /// but those of `stale` digests (the earlier versions of stories that changed or are gone)
    /// not asked for again: a graph brought up to date without a crawl (``KeptGraph``) needs the
    /// references of the stories that did not change next time, and those are the rest of the
    /// records, the file having been written after the crawl the graph was kept from. Marking each
    /// of ten thousand digests kept cost a one-story rebuild 2% of its time.
    func keepAll(except stale: [String], baseURL: String?, rootSlug: String) {
        lock.withLock {
            guard persisting else { return }
            switchLocked(to: Context(baseURL: baseURL, rootSlug: rootSlug))
            current.keepsAllRead = true
            current.stale.formUnion(stale)
        }
    }

    /// Makes `asked` the current pair, with what is kept for it; the lock must be held.
    private func switchLocked(to asked: Context) {
        if context != asked {
            if let context { others[context] = current }
            current = others.removeValue(forKey: asked) ?? Pair(parking: parking)
            context = asked
        }
        current.isAsked = true
    }

    /// The references `kept` holds, reading its record outside the lock (the crawl asks on
    /// every thread) and keeping what it read for `context`; nil for a record that cannot be read.
    private func read(_ kept: Kept, digest: String, context asked: Context) -> [ExtractedReference]? {
        switch kept {
        case .read(let references):
            return references
        case .record(let file, let range):
            guard let references = Self.references(inRecord: range, of: file) else { return nil }
            lock.withLock {
                if context == asked { current.stored[digest] = references } else { others[asked]?.stored[digest] = references }
            }
            return references
        }
    }

    // MARK: On disk

    /// The file's magic line: the file is the number of pairs, then each pair's part, its
    /// length first.
    static let magic = "storysite references 5\n"
    /// The magic line of a pair's part: its base URL and root, then its shards' parts.
    static let pairMagic = "storysite references of a root 2\n"
    /// The magic line of a shard's part: its string table and its records.
    static let shardMagic = "storysite references of a shard 3\n"

    /// The cache kept in the file at `url`, to be written again (``encoded()``); an empty one
    /// when the file is missing, unreadable, corrupt or of another version. Without
    /// `writesBack`, a cache kept in memory that starts from the file (`serve`'s). Reading finds
    /// where each record is; a record is decoded when its story is first asked for. With
    /// `parking`, the records a crawl finds wait there until the cache's file is written.
    public static func reading(_ url: URL, writesBack: Bool = true, parking: TapeStore? = nil) -> ReferenceCache {
        let cache = ReferenceCache(persisting: writesBack, parking: parking)
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped),
              let pairs = data.withUnsafeBytes({ pairs(in: $0, of: data, continuing: writesBack, parking: parking) }) else { return cache }
        for (context, pair) in pairs { cache.others[context] = pair }
        cache.pairsRead = pairs.map(\.context)
        return cache
    }

    /// Each pair's part of the file `data` (read whole, so its indices are offsets in `buffer`,
    /// its bytes), as a pair whose shards read their records there, each with a writer that
    /// continues its part when `continuing` and it is worth it; nil when a part cannot be read.
    private static func pairs(
        in buffer: UnsafeRawBufferPointer, of data: Data, continuing: Bool, parking: TapeStore?
    ) -> [(context: Context, pair: Pair)]? {
        guard var reader = ByteRecordReader(buffer, magic: magic), let count = reader.count() else { return nil }
        var pairs: [(context: Context, pair: Pair)] = []
        for _ in 0..<count {
            guard let range = reader.part(),
                  var pairReader = ByteRecordReader(UnsafeRawBufferPointer(rebasing: buffer[range]), magic: pairMagic),
                  let baseURL = pairReader.optionalString(), let rootSlug = pairReader.string(),
                  pairReader.count() == shardCount else { return nil }
            var pair = Pair(parking: parking)
            for index in 0..<shardCount {
                guard let shardRange = pairReader.part() else { return nil }
                let start = range.lowerBound + shardRange.lowerBound
                let part = start..<start + shardRange.count
                guard let read = records(in: UnsafeRawBufferPointer(rebasing: buffer[part]), at: start) else { return nil }
                let continues = continuing && read.reader.isWorthContinuing
                pair.shards[index] = Shard(
                    writer: continues ? ByteRecordWriter(magic: shardMagic, continuing: read.reader) : ByteRecordWriter(magic: shardMagic),
                    file: KeptFile(
                        bytes: data, part: part, table: read.reader.table, records: read.records, recordsRange: read.recordsRange,
                        isContinued: continues),
                    parking: parking)
            }
            guard pairReader.isAtEnd else { return nil }
            pairs.append((Context(baseURL: baseURL, rootSlug: rootSlug), pair))
        }
        return reader.isAtEnd ? pairs : nil
    }

    /// The cache file's bytes: the references of the latest crawl's stories, of each pair it
    /// asked for; nil when they are what the cache file held, or for a cache kept in memory.
    public func encoded() -> FileChunks? {
        lock.withLock {
            guard persisting else { return nil }
            var pairs = others
            if let context { pairs[context] = current }
            let asked = pairs.filter(\.value.isAsked).sorted { $0.key < $1.key }
            let unchanged = asked.allSatisfy { $0.value.isAsRead }
            guard !asked.isEmpty, !unchanged || asked.map(\.key) != pairsRead.sorted() else { return nil }
            var file = ByteRecordWriter(magic: Self.magic)
            file.number(asked.count)
            for (context, pair) in asked { file.part(Self.encoded(pair, of: context)) }
            return file.file
        }
    }

    /// The bytes of `pair`'s part of the file, the pair of `context`.
    private static func encoded(_ pair: Pair, of context: Context) -> FileChunks {
        var part = ByteRecordWriter(magic: pairMagic)
        part.optionalString(context.baseURL)
        part.string(context.rootSlug)
        part.number(shardCount)
        if pair.keepsAllRead, pair.shards.allSatisfy({ $0.file?.isContinued ?? true }) {
            let dropped = pair.dropped
            for shard in pair.shards { part.part(encoded(shard, keepingAllBut: dropped)) }
            return part.file
        }
        var digestsByShard = [[String]](repeating: [], count: shardCount)
        for digest in ByteOrder.sorted(pair.written) {
            digestsByShard[shard(of: digest)].append(digest)
        }
        for (shard, digests) in zip(pair.shards, digestsByShard) {
            var written = shard.lock.withLock { shard.writer }
            for digest in digests {
                if let file = shard.file, file.isContinued, let record = file.records[digest] {
                    written.beginRecord()
                    written.append(record: record, of: file.bytes)
                } else if let references = pair.stored[digest] ?? shard.file.flatMap({ file in
                    file.records[digest].flatMap { references(inRecord: $0, of: file) }
                }) {
                    write(digest: digest, references: references, into: &written)
                }
            }
            // The end: a part cut short between two records is not taken for a shorter one.
            written.number(0)
            part.part(written.file)
        }
        return part.file
    }

    /// The bytes of `shard`'s part of the file: the records encoded since, then the records of
    /// its part of the file read as they are there but those of `dropped`, run by run.
    private static func encoded(_ shard: Shard, keepingAllBut dropped: Set<String>) -> FileChunks {
        var written = shard.lock.withLock { shard.writer }
        if let file = shard.file {
            let droppedRecords = dropped.compactMap { file.records[$0] }.sorted { $0.lowerBound < $1.lowerBound }
            written.append(records: file.recordsRange, of: file.bytes, replacing: droppedRecords) { _, _ in }
        }
        written.number(0)
        return written.file
    }

    /// One story's record: `1`, its digest (in place: every record has its own, which the
    /// shard's string table would only grow by), then the length of the rest and its references.
    private static func write(digest: String, references: [ExtractedReference], into writer: inout ByteRecordWriter) {
        writer.beginRecord()
        writer.number(1)
        writer.inlineString(digest)
        writer.lengthPrefixed { writer in
            writer.number(references.count)
            for reference in references { write(reference, into: &writer) }
        }
    }

    /// One reference: its field path, kind, target, anchor and saved slug (in place, as the
    /// target is), then its lookup order:
    /// `0` for the order a story link with that target and slug has (which nearly every
    /// reference's is), else the number of steps plus one and the steps.
    private static func write(_ reference: ExtractedReference, into writer: inout ByteRecordWriter) {
        writer.string(reference.fieldPath)
        writer.kind(reference.kind)
        writer.reference(reference.reference)
        writer.optionalString(reference.anchor)
        writer.optionalInlineString(reference.cachedURL)
        if reference.lookupOrder == derivedLookupOrder(of: reference.reference, cachedURL: reference.cachedURL) {
            writer.number(0)
        } else {
            writer.number(reference.lookupOrder.count + 1)
            for step in reference.lookupOrder { writer.reference(step) }
        }
    }

    /// The lookup order a story link to `target` that saved `cachedURL` has.
    private static func derivedLookupOrder(of target: StoryReference, cachedURL: String?) -> [StoryReference] {
        StoryLink(reference: target, cachedURL: cachedURL).lookupOrder
    }

    /// Where each record of a shard's part of the cache file (`buffer`, which starts at `start`
    /// in the file) is in the file, passing over the references in them, with the reader at the
    /// part's end; nil when the records cannot be told apart.
    private static func records(
        in buffer: UnsafeRawBufferPointer, at start: Int
    ) -> (records: [String: Range<Int>], recordsRange: Range<Int>, reader: ByteRecordReader)? {
        guard var reader = ByteRecordReader(buffer, magic: shardMagic) else { return nil }
        var records: [String: Range<Int>] = [:]
        let first = reader.offset
        var end = first
        while true {
            let recordStart = reader.offset
            let tag = reader.number()
            if tag == 0 { break }
            guard tag == 1, let digest = reader.inlineString(), let length = reader.count(), reader.skip(length) else { return nil }
            records[digest] = start + recordStart..<start + reader.offset
            end = reader.offset
        }
        guard reader.isAtEnd else { return nil }
        return (records, start + first..<start + end, reader)
    }

    /// The references in the record at `range` of `file`; nil when it cannot be read.
    private static func references(inRecord range: Range<Int>, of file: KeptFile) -> [ExtractedReference]? {
        file.bytes.withUnsafeBytes { whole in
            let buffer = UnsafeRawBufferPointer(rebasing: whole[file.part])
            var reader = ByteRecordReader(buffer, table: file.table, at: range.lowerBound - file.part.lowerBound)
            guard reader.number() == 1, reader.inlineString() != nil, reader.count() != nil, let count = reader.count() else { return nil }
            var references: [ExtractedReference] = []
            references.reserveCapacity(count)
            for _ in 0..<count {
                guard let reference = read(from: &reader) else { return nil }
                references.append(reference)
            }
            return reader.offset == range.upperBound - file.part.lowerBound ? references : nil
        }
    }

    private static func read(from reader: inout ByteRecordReader) -> ExtractedReference? {
        guard let fieldPath = reader.string(), let kind = reader.kind(),
              let target = reader.reference(), let anchor = reader.optionalString(),
              let cachedURL = reader.optionalInlineString(), let form = reader.count() else { return nil }
        var lookupOrder: [StoryReference] = []
        if form == 0 {
            lookupOrder = derivedLookupOrder(of: target, cachedURL: cachedURL)
        } else {
            for _ in 1..<form {
                guard let step = reader.reference() else { return nil }
                lookupOrder.append(step)
            }
        }
        return ExtractedReference(
            fieldPath: fieldPath, kind: kind, reference: target, anchor: anchor, cachedURL: cachedURL, lookupOrder: lookupOrder)
    }
}
