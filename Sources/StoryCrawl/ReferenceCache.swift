import Foundation
import StoryModel

/// The references found in stories, by the digest of the file each story was read from: a
/// rebuild extracts references only from the stories that changed, and an unchanged story's
/// content need not even be read (see ``StoryModel/Story/init(head:digest:whole:)``).
///
/// `serve` keeps one in memory between rebuilds. A build reads one from disk and writes the
/// next (``reading(_:writesBack:)``, ``encoded()``); it encodes what it finds as it finds it, rather than
/// keeping every story's references until the end. The file written holds the stories of the
/// latest crawl alone, in the order found.
///
/// References depend on the base URL and the root story's slug as well as on the content, so
/// the cache holds those of one pair; asked with another, it starts empty. One kept in memory
/// keeps those of the earlier pairs aside, for a site whose languages have roots of their own
/// (`en/home`, `de/home`), crawled one after the other. Only stories with a file digest and
/// without embedded stories are kept.
public final class ReferenceCache: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var context: Context?
    /// Kept from earlier crawls: found in memory (`serve`), or read from ``file`` when first asked for.
    private var stored: [String: [ExtractedReference]] = [:]
    /// The cache file as read, its records read only when asked for.
    private var file: KeptFile?
    /// For a cache written to disk: the latest crawl's stories, those kept (in ``stored`` or
    /// ``file``) by digest and the others already encoded in ``writer``.
    private let persisting: Bool
    private var storedUsed: Set<String> = []
    private var encodedDigests: Set<String> = []
    private var writer = ByteRecordWriter(magic: ReferenceCache.magic)

    /// In memory, what was kept for each pair other than the current one.
    private var keptElsewhere: [Context: (stored: [String: [ExtractedReference]], file: KeptFile?)] = [:]

    private struct Context: Hashable {
        var baseURL: String?
        var rootSlug: String
    }

    /// A cache file as read: its bytes, its string table, and where each story's record is.
    private struct KeptFile {
        var bytes: Data
        var table: ByteRecordTable
        var records: [String: Range<Int>]
        /// Whether ``writer`` continues this file's table, so that its records are copied as they are.
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
    }

    private init(persisting: Bool) {
        self.persisting = persisting
    }

    /// The references in `story`: those kept for its digest, or `extract`'s, which are kept.
    func references(
        in story: Story, baseURL: String?, rootSlug: String, extract: () -> [ExtractedReference]
    ) -> [ExtractedReference] {
        guard let digest = story.givenDigest else { return extract() }
        let asked = Context(baseURL: baseURL, rootSlug: rootSlug)
        let kept: Kept? = lock.withLock {
            if context != asked { switchLocked(to: asked) }
            guard let found = keptLocked(digest) else { return nil }
            if persisting { storedUsed.insert(digest) }
            return found
        }
        if let kept, let references = read(kept, digest: digest, context: asked) { return references }
        let found = extract()
        guard !found.contains(where: { $0.embeddedStory != nil }) else { return found }
        lock.withLock {
            guard context == asked else { return }
            if !persisting {
                stored[digest] = found
            } else if encodedDigests.insert(digest).inserted {
                Self.write(digest: digest, references: found, into: &writer)
            }
        }
        return found
    }

    /// The references kept for a story whose file had `digest`, found with `baseURL` and
    /// `rootSlug`; nil when none are kept.
    func kept(forDigest digest: String, baseURL: String?, rootSlug: String) -> [ExtractedReference]? {
        let asked = Context(baseURL: baseURL, rootSlug: rootSlug)
        return lock.withLock {
            guard context != asked else { return keptLocked(digest) }
            return keptElsewhere[asked].flatMap { Self.kept(digest, stored: $0.stored, file: $0.file) }
        }.flatMap { read($0, digest: digest, context: asked) }
    }

    /// Keeps in the file written the references kept for `digests`, as a crawl with `baseURL`
    /// and `rootSlug` that found them there would: a graph brought up to date without a crawl
    /// (``KeptGraph``) still needs them next time. Digests the cache has none for are passed over.
    func keep(digests: [String], baseURL: String?, rootSlug: String) {
        lock.withLock {
            guard persisting, context == Context(baseURL: baseURL, rootSlug: rootSlug) else { return }
            for digest in digests where keptLocked(digest) != nil { storedUsed.insert(digest) }
        }
    }

    /// Makes `asked` the current pair, with what was kept for it before (in memory) or nothing;
    /// the lock must be held.
    private func switchLocked(to asked: Context) {
        if !persisting, let context { keptElsewhere[context] = (stored, file) }
        let earlier = persisting ? nil : keptElsewhere.removeValue(forKey: asked)
        start(asked)
        stored = earlier?.stored ?? [:]
        file = earlier?.file
        storedUsed = []
        encodedDigests = []
    }

    /// Where the references kept for `digest` are; the lock must be held.
    private func keptLocked(_ digest: String) -> Kept? {
        Self.kept(digest, stored: stored, file: file)
    }

    /// Where the references for `digest` are among those `stored` and those of `file`.
    private static func kept(_ digest: String, stored: [String: [ExtractedReference]], file: KeptFile?) -> Kept? {
        if let found = stored[digest] { return .read(found) }
        return file.flatMap { file in file.records[digest].map { .record(file, $0) } }
    }

    /// The references `kept` holds, reading its record outside the lock (the crawl asks on
    /// every thread) and keeping what it read for `context`; nil for a record that cannot be read.
    private func read(_ kept: Kept, digest: String, context asked: Context) -> [ExtractedReference]? {
        switch kept {
        case .read(let references):
            return references
        case .record(let file, let range):
            guard let references = Self.references(inRecord: range, of: file) else { return nil }
            lock.withLock { if context == asked { stored[digest] = references } }
            return references
        }
    }

    /// Starts the cache for `context`: the file written starts with it. With `continuing`,
    /// a writer that continues the cache file read.
    private func start(_ context: Context, continuing: ByteRecordWriter? = nil) {
        self.context = context
        writer = continuing ?? ByteRecordWriter(magic: Self.magic)
        writer.optionalString(context.baseURL)
        writer.string(context.rootSlug)
    }

    // MARK: On disk

    static let magic = "storysite references 3\n"

    /// The cache kept in the file at `url`, to be written again (``encoded()``); an empty one
    /// when the file is missing, unreadable, corrupt or of another version. Without
    /// `writesBack`, a cache kept in memory that starts from the file (`serve`'s). Reading finds
    /// where each record is; a record is decoded when its story is first asked for.
    public static func reading(_ url: URL, writesBack: Bool = true) -> ReferenceCache {
        let cache = ReferenceCache(persisting: writesBack)
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped) else { return cache }
        data.withUnsafeBytes { buffer in
            guard let (context, records, reader) = records(in: buffer) else { return }
            let continues = writesBack && reader.isWorthContinuing
            cache.start(context, continuing: continues ? ByteRecordWriter(magic: magic, continuing: reader) : nil)
            cache.file = KeptFile(bytes: data, table: reader.table, records: records, isContinued: continues)
        }
        return cache
    }

    /// The cache file's bytes: the references of the latest crawl's stories; nil when they are
    /// what the cache file held, or for a cache kept in memory.
    public func encoded() -> [UInt8]? {
        lock.withLock {
            guard persisting, context != nil, !encodedDigests.isEmpty || storedUsed.count != (file?.records.count ?? 0) else { return nil }
            var written = writer
            for digest in storedUsed.sorted() where !encodedDigests.contains(digest) {
                if let file, file.isContinued, let record = file.records[digest] {
                    written.append(record: record, of: file.bytes)
                } else if let references = stored[digest] ?? file.flatMap({ file in
                    file.records[digest].flatMap { Self.references(inRecord: $0, of: file) }
                }) {
                    Self.write(digest: digest, references: references, into: &written)
                }
            }
            // The end: a file cut short between two records is not taken for a shorter one.
            written.number(0)
            return written.bytes
        }
    }

    /// One story's record: `1`, its digest, then the length of the rest and its references.
    private static func write(digest: String, references: [ExtractedReference], into writer: inout ByteRecordWriter) {
        writer.number(1)
        writer.string(digest)
        writer.lengthPrefixed { writer in
            writer.number(references.count)
            for reference in references { write(reference, into: &writer) }
        }
    }

    private static func write(_ reference: ExtractedReference, into writer: inout ByteRecordWriter) {
        writer.string(reference.fieldPath)
        writer.string(reference.kind.rawValue)
        writer.reference(reference.reference)
        writer.optionalString(reference.anchor)
        writer.optionalString(reference.cachedURL)
        writer.number(reference.lookupOrder.count)
        for step in reference.lookupOrder { writer.reference(step) }
    }

    /// The context of a cache file and where each record is, passing over the references in
    /// them, with the reader at the file's end; nil when the records cannot be told apart.
    private static func records(in buffer: UnsafeRawBufferPointer) -> (Context, [String: Range<Int>], ByteRecordReader)? {
        guard var reader = ByteRecordReader(buffer, magic: magic), let baseURL = reader.optionalString(),
              let rootSlug = reader.string() else { return nil }
        var records: [String: Range<Int>] = [:]
        while true {
            let start = reader.offset
            let tag = reader.number()
            if tag == 0 { break }
            guard tag == 1, let digest = reader.string(), let length = reader.count(), reader.skip(length) else { return nil }
            records[digest] = start..<reader.offset
        }
        guard reader.isAtEnd else { return nil }
        return (Context(baseURL: baseURL, rootSlug: rootSlug), records, reader)
    }

    /// The references in the record at `range` of `file`; nil when it cannot be read.
    private static func references(inRecord range: Range<Int>, of file: KeptFile) -> [ExtractedReference]? {
        file.bytes.withUnsafeBytes { buffer in
            var reader = ByteRecordReader(buffer, table: file.table, at: range.lowerBound)
            guard reader.number() == 1, reader.string() != nil, reader.count() != nil, let count = reader.count() else { return nil }
            var references: [ExtractedReference] = []
            references.reserveCapacity(count)
            for _ in 0..<count {
                guard let reference = read(from: &reader) else { return nil }
                references.append(reference)
            }
            return reader.offset == range.upperBound ? references : nil
        }
    }

    private static func read(from reader: inout ByteRecordReader) -> ExtractedReference? {
        guard let fieldPath = reader.string(), let kind = reader.string().flatMap(ReferenceKind.init(rawValue:)),
              let target = reader.reference(), let anchor = reader.optionalString(),
              let cachedURL = reader.optionalString(), let steps = reader.count() else { return nil }
        var lookupOrder: [StoryReference] = []
        for _ in 0..<steps {
            guard let step = reader.reference() else { return nil }
            lookupOrder.append(step)
        }
        return ExtractedReference(
            fieldPath: fieldPath, kind: kind, reference: target, anchor: anchor, cachedURL: cachedURL, lookupOrder: lookupOrder)
    }
}
