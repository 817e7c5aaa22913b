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
/// the cache holds those of one pair; asked with another, it starts empty. Only stories with a
/// file digest and without embedded stories are kept.
public final class ReferenceCache: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var context: Context?
    /// Kept from earlier crawls: as read from the cache file, or found in memory (`serve`).
    private var stored: [String: [ExtractedReference]] = [:]
    /// For a cache written to disk: the latest crawl's stories, those found in ``stored`` by
    /// digest and the others already encoded in ``writer``.
    private let persisting: Bool
    private var storedUsed: Set<String> = []
    /// The cache file as read, and where each of ``stored`` is in it, when ``writer`` continues
    /// it: those records are copied as they are.
    private var disk: (bytes: Data, records: [String: Range<Int>])?
    private var encodedDigests: Set<String> = []
    private var writer = ByteRecordWriter(magic: ReferenceCache.magic)

    private struct Context: Equatable {
        var baseURL: String?
        var rootSlug: String
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
        let kept: [ExtractedReference]? = lock.withLock {
            if context != asked {
                start(asked)
                stored = [:]
                storedUsed = []
                encodedDigests = []
                disk = nil
            }
            guard let found = stored[digest] else { return nil }
            if persisting { storedUsed.insert(digest) }
            return found
        }
        if let kept { return kept }
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
        lock.withLock { context == Context(baseURL: baseURL, rootSlug: rootSlug) ? stored[digest] : nil }
    }

    /// Keeps in the file written the references kept for `digests`, as a crawl with `baseURL`
    /// and `rootSlug` that found them there would: a graph brought up to date without a crawl
    /// (``KeptGraph``) still needs them next time. Digests the cache has none for are passed over.
    func keep(digests: [String], baseURL: String?, rootSlug: String) {
        lock.withLock {
            guard persisting, context == Context(baseURL: baseURL, rootSlug: rootSlug) else { return }
            for digest in digests where stored[digest] != nil { storedUsed.insert(digest) }
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

    private static let magic = "storysite references 2\n"

    /// The cache kept in the file at `url`, to be written again (``encoded()``); an empty one
    /// when the file is missing, unreadable, corrupt or of another version. Without
    /// `writesBack`, a cache kept in memory that starts from the file (`serve`'s).
    public static func reading(_ url: URL, writesBack: Bool = true) -> ReferenceCache {
        let cache = ReferenceCache(persisting: writesBack)
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped) else { return cache }
        data.withUnsafeBytes { buffer in
            guard let (context, stored, records, writer) = records(in: buffer) else { return }
            cache.start(context, continuing: writer)
            cache.stored = stored
            if writesBack, writer != nil { cache.disk = (data, records) }
        }
        return cache
    }

    /// The cache file's bytes: the references of the latest crawl's stories; nil when they are
    /// what the cache file held, or for a cache kept in memory.
    public func encoded() -> [UInt8]? {
        lock.withLock {
            guard persisting, context != nil, !encodedDigests.isEmpty || storedUsed.count != stored.count else { return nil }
            var file = writer
            for digest in storedUsed.sorted() where !encodedDigests.contains(digest) {
                if let disk, let record = disk.records[digest] {
                    file.append(record: record, of: disk.bytes)
                } else {
                    Self.write(digest: digest, references: stored[digest]!, into: &file)
                }
            }
            // The end: a file cut short between two records is not taken for a shorter one.
            file.number(0)
            return file.bytes
        }
    }

    /// One story's record: `1`, its digest, then its references.
    private static func write(digest: String, references: [ExtractedReference], into writer: inout ByteRecordWriter) {
        writer.number(1)
        writer.string(digest)
        writer.number(references.count)
        for reference in references { write(reference, into: &writer) }
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

    /// The context and records of a cache file, with where each record is and a writer to
    /// continue the file (nil when it is time to write it whole); nil when any cannot be read.
    private static func records(
        in buffer: UnsafeRawBufferPointer
    ) -> (Context, [String: [ExtractedReference]], [String: Range<Int>], ByteRecordWriter?)? {
        guard var reader = ByteRecordReader(buffer, magic: magic), let baseURL = reader.optionalString(),
              let rootSlug = reader.string() else { return nil }
        var stored: [String: [ExtractedReference]] = [:]
        var records: [String: Range<Int>] = [:]
        while true {
            let start = reader.offset
            let tag = reader.number()
            if tag == 0 { break }
            guard tag == 1, let digest = reader.string(), let referenceCount = reader.count() else { return nil }
            var references: [ExtractedReference] = []
            references.reserveCapacity(referenceCount)
            for _ in 0..<referenceCount {
                guard let reference = read(from: &reader) else { return nil }
                references.append(reference)
            }
            stored[digest] = references
            records[digest] = start..<reader.offset
        }
        guard reader.isAtEnd else { return nil }
        let writer = reader.isWorthContinuing ? ByteRecordWriter(magic: magic, continuing: reader) : nil
        return (Context(baseURL: baseURL, rootSlug: rootSlug), stored, records, writer)
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
