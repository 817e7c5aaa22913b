import Foundation
import StoryModel

/// The references found in stories, by the digest of the file each story was read from, kept
/// on disk between builds: a rebuild extracts references only from the stories that changed,
/// and an unchanged story's content need not even be read (see ``StoryModel/Story/init(head:digest:whole:)``).
///
/// References depend on the base URL and the root story's slug as well as on the content, so
/// the cache holds those of one pair; asked with another, it starts empty. Only stories with a
/// file digest and without embedded stories are kept. The cache written holds the stories of
/// the latest crawl alone.
public final class ReferenceCache: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var context: Context?
    /// As read from the cache file.
    private var stored: [String: [ExtractedReference]] = [:]
    /// Asked for or found by the latest crawl.
    private var used: [String: [ExtractedReference]] = [:]

    private struct Context: Equatable {
        var baseURL: String?
        var rootSlug: String
    }

    public init() {}

    /// The references in `story`: those kept for its digest, or `extract`'s, which are kept.
    func references(
        in story: Story, baseURL: String?, rootSlug: String, extract: () -> [ExtractedReference]
    ) -> [ExtractedReference] {
        guard let digest = story.givenDigest else { return extract() }
        let asked = Context(baseURL: baseURL, rootSlug: rootSlug)
        if let found: [ExtractedReference] = lock.withLock({
            if context != asked {
                context = asked
                stored = [:]
                used = [:]
            }
            if let found = used[digest] ?? stored[digest] {
                used[digest] = found
                return found
            }
            return nil
        }) {
            return found
        }
        let found = extract()
        if !found.contains(where: { $0.embeddedStory != nil }) {
            lock.withLock { if context == asked { used[digest] = found } }
        }
        return found
    }

    // MARK: On disk

    private static let magic = "storysite references 1\n"

    /// The cache kept in the file at `url`; an empty one when the file is missing, unreadable,
    /// corrupt or of another version.
    public static func reading(_ url: URL) -> ReferenceCache {
        let cache = ReferenceCache()
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped) else { return cache }
        data.withUnsafeBytes { buffer in
            guard let (context, stored) = records(in: buffer) else { return }
            cache.context = context
            cache.stored = stored
        }
        return cache
    }

    /// The cache file's bytes: the references of the latest crawl's stories; nil when they are
    /// what the cache file held.
    public func encoded() -> [UInt8]? {
        lock.withLock {
            guard let context, used.count != stored.count || used.keys.contains(where: { stored[$0] == nil }) else { return nil }
            var writer = ByteRecordWriter(magic: Self.magic)
            writer.optionalString(context.baseURL)
            writer.string(context.rootSlug)
            writer.number(used.count)
            for (digest, references) in used.sorted(by: { $0.key < $1.key }) {
                writer.string(digest)
                writer.number(references.count)
                for reference in references { Self.write(reference, into: &writer) }
            }
            return writer.bytes
        }
    }

    private static func write(_ reference: ExtractedReference, into writer: inout ByteRecordWriter) {
        writer.string(reference.fieldPath)
        writer.string(reference.kind.rawValue)
        write(reference.reference, into: &writer)
        writer.optionalString(reference.anchor)
        writer.optionalString(reference.cachedURL)
        writer.number(reference.lookupOrder.count)
        for step in reference.lookupOrder { write(step, into: &writer) }
    }

    private static func write(_ reference: StoryReference, into writer: inout ByteRecordWriter) {
        switch reference {
        case .uuid(let uuid): writer.number(0); writer.string(uuid)
        case .slug(let slug): writer.number(1); writer.string(slug)
        case .id(let id): writer.number(2); writer.number(id)
        }
    }

    private static func records(in buffer: UnsafeRawBufferPointer) -> (Context, [String: [ExtractedReference]])? {
        guard var reader = ByteRecordReader(buffer, magic: magic), let baseURL = reader.optionalString(),
              let rootSlug = reader.string(), let count = reader.count() else { return nil }
        var stored: [String: [ExtractedReference]] = [:]
        stored.reserveCapacity(count)
        for _ in 0..<count {
            guard let digest = reader.string(), let referenceCount = reader.count() else { return nil }
            var references: [ExtractedReference] = []
            references.reserveCapacity(referenceCount)
            for _ in 0..<referenceCount {
                guard let reference = read(from: &reader) else { return nil }
                references.append(reference)
            }
            stored[digest] = references
        }
        return reader.isAtEnd ? (Context(baseURL: baseURL, rootSlug: rootSlug), stored) : nil
    }

    private static func read(from reader: inout ByteRecordReader) -> ExtractedReference? {
        guard let fieldPath = reader.string(), let kind = reader.string().flatMap(ReferenceKind.init(rawValue:)),
              let target = readReference(from: &reader), let anchor = reader.optionalString(),
              let cachedURL = reader.optionalString(), let steps = reader.count() else { return nil }
        var lookupOrder: [StoryReference] = []
        for _ in 0..<steps {
            guard let step = readReference(from: &reader) else { return nil }
            lookupOrder.append(step)
        }
        return ExtractedReference(
            fieldPath: fieldPath, kind: kind, reference: target, anchor: anchor, cachedURL: cachedURL, lookupOrder: lookupOrder)
    }

    private static func readReference(from reader: inout ByteRecordReader) -> StoryReference? {
        switch reader.number() {
        case 0: return reader.string().map(StoryReference.uuid)
        case 1: return reader.string().map(StoryReference.slug)
        case 2: return reader.int().map(StoryReference.id)
        default: return nil
        }
    }
}
