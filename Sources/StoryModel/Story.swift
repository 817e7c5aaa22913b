/// One story: a page's worth of content with its identity and place in the content tree.
///
/// Only `uuid`, `full_slug` and `content` are required; everything else is read leniently.
/// The whole original object is kept, so templates and `pull` see every field: as the tape of
/// the file it was read from (``JSONTape``), as a tree, or as its head with the rest in its file.
///
/// Immutable, and shared rather than copied: a story is handed around thousands of times per
/// build (lookups, links, backlinks), and a copy is one reference count instead of one per field.
public struct Story: Sendable, Hashable {
    private final class Storage: Sendable {
        let uuid: String
        let key: StoryKey
        let id: Int?
        let name: String
        let slug: String
        let fullSlug: String
        /// See ``Story/startPageFolder``.
        let startPageFolder: String?
        let body: Body
        /// The tape the body's `tape` and `headAndTape` read, or the tape of a `stored` body's head
        /// (every key but `content`). Kept here, not in ``Body``, whose cases share the spare bits
        /// of their references: a leak checker would not see it.
        let tape: JSONTape?
        /// The store the body's `stored` tape is in, kept here for the same reason.
        let store: TapeStore?
        let digest: String?
        let translationDigests: TranslationDigests

        init(
            uuid: String, id: Int?, name: String, slug: String, fullSlug: String, startPageFolder: String?, body: Body, tape: JSONTape?,
            store: TapeStore? = nil, digest: String?, translationDigests: TranslationDigests
        ) {
            self.uuid = uuid
            key = StoryKey(uuid)
            self.id = id
            self.name = name
            self.slug = slug
            self.fullSlug = fullSlug
            self.startPageFolder = startPageFolder
            self.body = body
            self.tape = tape
            self.store = store
            self.digest = digest
            self.translationDigests = translationDigests
        }
    }

    /// The story object: a tree, on the tape (at `object`, its content at `content`), or its head
    /// (every key but `content`) with the whole object read from its file when first asked for
    /// (see ``init(head:digest:translationDigests:parkingIn:whole:)``).
    private enum Body: Sendable {
        case whole(raw: JSONObject, content: JSONValue)
        case tape(object: Int, content: Int)
        /// A head, with the root block on a tape: where it sits among the head's keys, and its
        /// index (a translated story).
        case headAndTape(head: JSONObject, contentAt: Int, content: Int)
        case deferred(DeferredStoryTape)
        /// A story whose tape is read from a store each time its content is asked for (see
        /// ``storingContent(in:)``), its head on a tape of its own: the indices of the story
        /// object and the root block in the stored tape, and where that is.
        case stored(object: Int, content: Int, at: TapeStore.Location)
    }

    private let storage: Storage
    /// The tape of a body that is on one (`tape`, `headAndTape`), or read from its store (`stored`).
    private var tape: JSONTape {
        if case .stored(_, _, let location) = storage.body { return storage.store!.tape(at: location) }
        return storage.tape!
    }

    /// The story's stable identity; story links refer to it.
    public var uuid: String { storage.uuid }
    /// The UUID as a lookup key, made once per story.
    public var key: StoryKey { storage.key }
    /// The numeric id, when present (some multilinks carry it instead of the UUID).
    public var id: Int? { storage.id }
    /// The display name; falls back to the slug.
    public var name: String { storage.name }
    /// The last path segment.
    public var slug: String { storage.slug }
    /// The path from the space root, without a leading `/`; a folder start page's ends with `/`.
    public var fullSlug: String { storage.fullSlug }
    /// The root block: an object with `component` and `_uid`. A story read from a file makes
    /// this tree from its tape each time it is asked for; ``withContent(_:)`` reads in place.
    public var content: JSONValue {
        switch storage.body {
        case .whole(_, let content): return content
        case .tape(_, let content), .headAndTape(_, _, let content), .stored(_, let content, _): return tape.value(at: content)
        case .deferred(let whole): return whole.found.map { $0.tape.value(at: $0.content) } ?? .object(JSONObject())
        }
    }
    /// The whole story object as it was read.
    public var raw: JSONObject {
        switch storage.body {
        case .whole(let raw, _): return raw
        case .tape(let object, _), .stored(let object, _, _): return tape.withReader { $0.object(at: object) }
        case .headAndTape(let head, let position, let content):
            var entries = head.entries
            entries.insert(JSONObject.Entry(key: "content", value: tape.value(at: content)), at: min(position, entries.count))
            return JSONObject(distinctEntries: entries)
        case .deferred(let whole): return Self.object(of: whole) ?? whole.head
        }
    }
    /// The root block's field `key`: unlike `content[key]`, read from a story's tape without
    /// making a tree of the rest of its content.
    public func contentField(_ key: String) -> JSONValue? {
        guard let (tape, content) = contentOnTape else { return content[key] }
        return tape.withReader { reader in reader.value(forKey: key, inObject: content).map(reader.value(at:)) }
    }
    /// Whether the root block is an object, told without reading a stored or deferred story's
    /// content back: a page asks it of every story it lists. A story read from a tape was checked
    /// to have one when it was made, and one read from its head has one, or reads as an empty
    /// one when its file no longer holds it.
    public var hasContentObject: Bool {
        switch storage.body {
        case .whole(_, let content):
            if case .object = content { return true }
            return false
        case .tape, .headAndTape, .stored, .deferred: return true
        }
    }
    /// The tape of a story read into one (a deferred story's once its file is read), and the
    /// root block's index in it.
    var contentOnTape: (tape: JSONTape, content: Int)? {
        switch storage.body {
        case .tape(_, let content), .headAndTape(_, _, let content), .stored(_, let content, _): return (tape, content)
        case .deferred(let whole): return whole.found.map { ($0.tape, $0.content) }
        case .whole: return nil
        }
    }
    /// Where `content` sits among the keys of the story object of a story read into a tape.
    var contentPosition: Int? {
        switch storage.body {
        case .tape(let object, let content), .stored(let object, let content, _):
            return tape.withReader { reader in
                var position = 0
                reader.forEachEntry(ofObject: object) { _, value in
                    guard value != content else { return false }
                    position += 1
                    return true
                }
                return position
            }
        case .headAndTape(_, let position, _): return position
        case .whole, .deferred: return nil
        }
    }
    /// Calls `body` with the tape that holds the root block and the block's index in it: the
    /// story's own tape, or (for a story made from a tree) a tape made from its content.
    public func withContent<Result>(_ body: (_ tape: JSONTape, _ reader: JSONTape.Reader, _ root: Int) -> Result) -> Result {
        let (tape, root) = contentOnTape ?? (JSONTape(encoding: content), 0)
        return tape.withReader { body(tape, $0, root) }
    }
    /// Every key of the story object but `content`, in document order: what a story is known by
    /// without its content, as the build cache keeps it (``init(head:digest:translationDigests:parkingIn:whole:)``).
    public var head: JSONObject {
        switch storage.body {
        case .whole(let raw, _): return JSONObject(distinctEntries: raw.entries.filter { $0.key != "content" })
        case .tape(let object, _): return tape.withReader { $0.object(at: object, skipping: "content") }
        case .headAndTape(let head, _, _): return head
        case .deferred(let whole): return whole.head
        case .stored: return storage.tape!.withReader { $0.object(at: 0) }
        }
    }
    /// The value of `key` in the story object. Unlike `raw[key]`, a key other than `content`
    /// never reads a deferred story's file.
    public func field(_ key: String) -> JSONValue? {
        switch storage.body {
        case .whole(let raw, _): return raw[key]
        case .tape(let object, _):
            return tape.withReader { reader in reader.value(forKey: key, inObject: object).map(reader.value(at:)) }
        case .headAndTape(let head, _, _): return key == "content" ? content : head[key]
        case .deferred(let whole): return key == "content" ? content : whole.head[key]
        case .stored:
            guard key != "content" else { return content }
            return storage.tape!.withReader { reader in reader.value(forKey: key, inObject: 0).map(reader.value(at:)) }
        }
    }
    /// The folder whose start page this story is, or nil when it is not a start page: a slug
    /// that ends with `/`, or a story marked `is_startpage` (of the folder its slug is in) or
    /// `is_folder` (of the folder its slug names).
    public var startPageFolder: String? { storage.startPageFolder }
    /// A fingerprint of the story as read (16 hex digits): a story that changed gets another
    /// digest, which is how a rebuild tells what changed. An unchanged story may get another
    /// too (its file's spacing changed), which costs only a render. See ``init(json:digest:)``.
    public var digest: String { storage.digest ?? Self.digest(of: raw) }
    /// The digest the story was made with (its file's bytes), when it was given one.
    public var givenDigest: String? { storage.digest }
    /// The digests of the translations of this version of the story, as far as they are known
    /// (see ``translated(to:isDefault:)``).
    public var translationDigests: TranslationDigests { storage.translationDigests }
    /// The store this story's content waits in (``storingContent(in:)``), or will once read from
    /// its file (``init(head:digest:translationDigests:parkingIn:whole:)``); nil for content kept in memory.
    var contentStore: TapeStore? {
        switch storage.body {
        case .stored: return storage.store
        case .deferred(let whole): return whole.store
        case .whole, .tape, .headAndTape: return nil
        }
    }
    /// The whole story object; nil for a story read from its head whose file no longer holds it
    /// (see ``init(head:digest:translationDigests:parkingIn:whole:)``).
    var readableRaw: JSONObject? {
        switch storage.body {
        case .whole(let raw, _): return raw
        case .tape, .headAndTape, .stored: return raw
        case .deferred(let whole): return Self.object(of: whole)
        }
    }

    /// The story object a deferred story's file holds, made from its tape; nil when the file
    /// no longer holds it.
    private static func object(of whole: DeferredStoryTape) -> JSONObject? {
        whole.found.map { found in found.tape.withReader { $0.object(at: found.object) } }
    }

    /// Builds a story from a story object, or says which required keys are missing (all of
    /// them), or which is malformed.
    /// `digest` is a fingerprint of where the object came from, when that is cheaper to hash than
    /// the tree (the bytes of a file that holds this story alone). Without one, ``digest`` hashes
    /// the JSON tree when it is read, not here: stories embedded in content are made on every
    /// classification of their object, and most are never asked for theirs.
    public init(json object: JSONObject, digest: String? = nil) throws(StoryDecodingError) {
        guard let uuidValue = object["uuid"], !uuidValue.isNull, let slugValue = object["full_slug"], !slugValue.isNull,
              let content = object["content"], !content.isNull else {
            throw .missingKeys(Self.requiredKeys.filter { object[$0]?.isNull ?? true })
        }
        guard case .object = content else { throw .malformedKey("content", "an object (the root block)") }
        storage = try Self.makeStorage(
            uuid: uuidValue, fullSlug: slugValue, fields: StoryFields { object[$0] }, body: .whole(raw: object, content: content), digest: digest)
    }

    /// Builds a story from the story object at `index` of `tape`, as ``init(json:digest:)``
    /// does from a tree; the story keeps the tape and reads its fields from it.
    public init(tape: JSONTape, at index: Int = 0, digest: String? = nil) throws(StoryDecodingError) {
        let read: Result<Storage, StoryDecodingError> = tape.withReader { reader in
            guard reader.kind(at: index) == .object else { return .failure(.notAnObject) }
            let field = { (key: String) in reader.value(forKey: key, inObject: index).map(reader.value(at:)) }
            let uuidValue = field("uuid"), slugValue = field("full_slug")
            let content = reader.value(forKey: "content", inObject: index)
            guard let uuidValue, !uuidValue.isNull, let slugValue, !slugValue.isNull, let content, reader.kind(at: content) != .null else {
                let present = ["uuid": uuidValue, "full_slug": slugValue, "content": content.map(reader.value(at:))]
                return .failure(.missingKeys(Self.requiredKeys.filter { present[$0]??.isNull ?? true }))
            }
            guard reader.kind(at: content) == .object else { return .failure(.malformedKey("content", "an object (the root block)")) }
            return Result { () throws(StoryDecodingError) in
                try Self.makeStorage(
                    uuid: uuidValue, fullSlug: slugValue, fields: StoryFields(field), body: .tape(object: index, content: content), tape: tape,
                    digest: digest)
            }
        }
        storage = try read.get()
    }

    /// A story of `head` (every key of its object but `content`) and the root block at the
    /// start of `tape`, which sits at `position` among the object's keys.
    init(head: JSONObject, contentAt position: Int, of tape: JSONTape, digest: String) throws(StoryDecodingError) {
        guard let uuidValue = head["uuid"], let slugValue = head["full_slug"] else { throw .missingKeys(["uuid", "full_slug"]) }
        storage = try Self.makeStorage(
            uuid: uuidValue, fullSlug: slugValue, fields: StoryFields { head[$0] }, body: .headAndTape(head: head, contentAt: position, content: 0),
            tape: tape, digest: digest)
    }

    /// This story with its tape written to `store` and read back from there each time its content
    /// is asked for, keeping in memory only its head (every key but `content`): a large build
    /// parks each story's content so that the whole site's is not held at once. A story not read
    /// into a tape of its own, or whose tape cannot be written, is kept as it is.
    public func storingContent(in store: TapeStore) -> Story {
        guard case .tape(let object, let content) = storage.body, let tape = storage.tape, let location = store.keep(tape) else { return self }
        let head = JSONTape(encoding: .object(tape.withReader { $0.object(at: object, skipping: "content") }))
        return Story(storage: Storage(
            uuid: storage.uuid, id: storage.id, name: storage.name, slug: storage.slug, fullSlug: storage.fullSlug,
            startPageFolder: storage.startPageFolder, body: .stored(object: object, content: content, at: location), tape: head,
            store: store, digest: storage.digest, translationDigests: storage.translationDigests))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// A story known by its `head` (every key of its object but `content`) and the `digest` of
    /// the file it was read from, which `whole` reads again into a tape (with the index of the
    /// story object in it) when ``content``, ``raw`` or ``withContent(_:)`` first asks for it: a
    /// rebuild keeps the heads of unchanged files and reads only the files whose content a page
    /// it renders shows. `whole` is called at most once; when it returns nil (the file changed
    /// since), the story reads as its head with an empty root block, and the loader is what
    /// reports the problem. `translationDigests` are those its translations were found to have
    /// (``TranslationDigests/all``); with `reporting`, finding more of them adds the tag to
    /// that ``TranslationsFound``. With `store`, the tape `whole` reads is written there and
    /// read back each time the content is asked for, as ``storingContent(in:)`` keeps it.
    public init(
        head: JSONObject, digest: String, translationDigests: [String: String] = [:],
        reporting: (found: TranslationsFound, tag: Int)? = nil, parkingIn store: TapeStore? = nil,
        whole: @escaping @Sendable () -> (tape: JSONTape, object: Int)?
    ) throws(StoryDecodingError) {
        try self.init(
            deferring: .object(head), uuid: head["uuid"], fullSlug: head["full_slug"], fields: StoryFields { head[$0] }, digest: digest,
            translationDigests: translationDigests, reporting: reporting, parkingIn: store, whole: whole)
    }

    /// A story known by its head as a kept file holds it, read into an object only when asked
    /// for (all else as ``init(head:digest:translationDigests:reporting:parkingIn:whole:)``).
    public init(
        keptHead head: KeptHead, digest: String, translationDigests: [String: String] = [:],
        reporting: (found: TranslationsFound, tag: Int)? = nil, parkingIn store: TapeStore? = nil,
        whole: @escaping @Sendable () -> (tape: JSONTape, object: Int)?
    ) throws(StoryDecodingError) {
        try self.init(
            deferring: .kept(head.encoding), uuid: head.uuid, fullSlug: head.fullSlug, fields: head.fields, digest: digest,
            translationDigests: translationDigests, reporting: reporting, parkingIn: store, whole: whole)
    }

    /// A deferred story of `head`, whose `uuid`, `full_slug` and other ``StoryFields`` are read.
    private init(
        deferring head: DeferredStoryTape.Head, uuid uuidValue: JSONValue?, fullSlug slugValue: JSONValue?, fields: StoryFields,
        digest: String, translationDigests: [String: String], reporting: (found: TranslationsFound, tag: Int)?, parkingIn store: TapeStore?,
        whole: @escaping @Sendable () -> (tape: JSONTape, object: Int)?
    ) throws(StoryDecodingError) {
        guard let uuidValue, !uuidValue.isNull, let slugValue, !slugValue.isNull else {
            throw .missingKeys([("uuid", uuidValue), ("full_slug", slugValue)].filter { $0.1?.isNull ?? true }.map(\.0))
        }
        storage = try Self.makeStorage(
            uuid: uuidValue, fullSlug: slugValue, fields: fields,
            body: .deferred(DeferredStoryTape(head: head, store: store, load: whole)),
            digest: digest, translationDigests: TranslationDigests(translationDigests, reporting: reporting))
    }

    private static func makeStorage(
        uuid uuidValue: JSONValue, fullSlug slugValue: JSONValue, fields: StoryFields, body: Body, tape: JSONTape? = nil,
        digest: String?, translationDigests: TranslationDigests = TranslationDigests([:])
    ) throws(StoryDecodingError) -> Storage {
        guard let uuid = Self.identifier(uuidValue), !uuid.isEmpty else { throw .malformedKey("uuid", "a non-empty string") }
        guard let rawSlug = slugValue.stringValue else { throw .malformedKey("full_slug", "a string") }
        let fullSlug = Self.normalizedSlug(rawSlug)
        let name = fields.name?.stringValue ?? ""
        let slug = fields.slug?.stringValue
        // The fallback of both, made only when one of them needs it.
        let lastSegment = name.isEmpty || slug == nil ? Self.lastSegment(of: fullSlug) : ""
        return Storage(
            uuid: uuid,
            id: fields.id?.numberValue.flatMap { $0.isFinite ? Int(exactly: $0) : nil },
            name: name.isEmpty ? lastSegment : name,
            slug: slug ?? lastSegment,
            fullSlug: fullSlug,
            startPageFolder: Self.startPageFolder(of: fullSlug, fields: fields),
            body: body,
            tape: tape,
            digest: digest,
            translationDigests: translationDigests)
    }

    /// The last non-empty segment of `fullSlug` (`post` for `blog/post` and `blog/post/`), or
    /// `fullSlug` itself when it has none. Looked for in its bytes: a story is made for every
    /// file a build reads, and `split` walks characters.
    static func lastSegment(of fullSlug: String) -> String {
        fullSlug.withUTF8Bytes { bytes in
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
            guard end > 0 else { return fullSlug }
            var start = end
            while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
            // Cut at `/` bytes, which are whole characters: the segment is valid UTF-8 as it is.
            return start == 0 && end == bytes.count ? fullSlug : String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    /// The keys every story object must have (not null): `uuid`, `full_slug` and `content`.
    public static let requiredKeys = ["uuid", "full_slug", "content"]

    /// The identity of this version of the story: the same for every copy of this value, another
    /// for the story read again. Cheaper to look up than the UUID, where the versions are known.
    public var versionID: ObjectIdentifier { ObjectIdentifier(storage) }

    public static func == (lhs: Story, rhs: Story) -> Bool {
        lhs.storage === rhs.storage || (lhs.uuid == rhs.uuid && lhs.id == rhs.id && lhs.name == rhs.name
            && lhs.slug == rhs.slug && lhs.fullSlug == rhs.fullSlug && lhs.content == rhs.content && lhs.raw == rhs.raw)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid)
        hasher.combine(fullSlug)
    }

    /// Strips leading slashes: Storyblok writes `full_slug` without one, exports sometimes with.
    public static func normalizedSlug(_ slug: String) -> String {
        guard slug.utf8.first == UInt8(ascii: "/") else { return slug }
        var trimmed = Substring(slug)
        while trimmed.first == "/" { trimmed = trimmed.dropFirst() }
        return String(trimmed)
    }

    /// Whether this is a folder's start page (see ``startPageFolder``).
    public var isStartPage: Bool { startPageFolder != nil }

    /// The root block's component name, or nil when it has none.
    public var rootComponent: String? {
        guard let (tape, content) = contentOnTape else { return content["component"]?.stringValue }
        return tape.withReader { reader in reader.value(forKey: "component", inObject: content).flatMap(reader.string(at:)) }
    }

    /// A string field of the story object (such as `published_at`), when present and non-empty.
    public func string(_ key: String) -> String? {
        guard let value = field(key)?.stringValue, !value.isEmpty else { return nil }
        return value
    }

    /// The tags, from `tag_list` (an array of strings); empty when absent.
    public var tags: [String] { field("tag_list")?.arrayValue?.compactMap(\.stringValue) ?? [] }

    private static func digest(of object: JSONObject) -> String {
        var fingerprint = Fingerprint()
        fingerprint.combine(.object(object))
        return fingerprint.hex
    }

    private static func identifier(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string): return string
        case .number(let number): return Int(exactly: number).map(String.init)
        default: return nil
        }
    }
}

/// Why a story object could not be read.
public enum StoryDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAnObject
    /// The required keys that are absent or null, in the order of ``Story/requiredKeys``.
    case missingKeys([String])
    case malformedKey(String, String)

    public var description: String {
        switch self {
        case .notAnObject: return "a story must be a JSON object"
        case .missingKeys(let keys):
            let quoted = keys.map { "'\($0)'" }
            let listed = quoted.count == 1 ? "key \(quoted[0])" : "keys " + quoted.dropLast().joined(separator: ", ") + " and " + quoted.last!
            return "story is missing the required \(listed) (every story has uuid, full_slug and content)"
        case .malformedKey(let key, let expected): return "story key '\(key)' must be \(expected)"
        }
    }
}
