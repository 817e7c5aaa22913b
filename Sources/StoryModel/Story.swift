/// One story: a page's worth of content with its identity and place in the content tree.
///
/// Only `uuid`, `full_slug` and `content` are required; everything else is read leniently.
/// The whole original object is kept in ``raw`` so templates and `pull` see every field.
///
/// Immutable, and shared rather than copied: a story is handed around thousands of times per
/// build (lookups, links, backlinks), and a copy is one reference count instead of one per field.
public struct Story: Sendable, Hashable {
    private final class Storage: Sendable {
        let uuid: String
        let id: Int?
        let name: String
        let slug: String
        let fullSlug: String
        let content: JSONValue
        let raw: JSONObject
        let digest: String?

        init(uuid: String, id: Int?, name: String, slug: String, fullSlug: String, content: JSONValue, raw: JSONObject, digest: String?) {
            self.uuid = uuid
            self.id = id
            self.name = name
            self.slug = slug
            self.fullSlug = fullSlug
            self.content = content
            self.raw = raw
            self.digest = digest
        }
    }

    private let storage: Storage

    /// The story's stable identity; story links refer to it.
    public var uuid: String { storage.uuid }
    /// The numeric id, when present (some multilinks carry it instead of the UUID).
    public var id: Int? { storage.id }
    /// The display name; falls back to the slug.
    public var name: String { storage.name }
    /// The last path segment.
    public var slug: String { storage.slug }
    /// The path from the space root, without a leading `/`; a folder start page's ends with `/`.
    public var fullSlug: String { storage.fullSlug }
    /// The root block: an object with `component` and `_uid`.
    public var content: JSONValue { storage.content }
    /// The whole story object as it was read.
    public var raw: JSONObject { storage.raw }
    /// A fingerprint of the story as read (16 hex digits): a story that changed gets another
    /// digest, which is how a rebuild tells what changed. An unchanged story may get another
    /// too (its file's spacing changed), which costs only a render. See ``init(json:digest:)``.
    public var digest: String { storage.digest ?? Self.digest(of: storage.raw) }

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
        guard let uuid = Self.identifier(uuidValue), !uuid.isEmpty else { throw .malformedKey("uuid", "a non-empty string") }
        guard let rawSlug = slugValue.stringValue else { throw .malformedKey("full_slug", "a string") }
        guard case .object = content else { throw .malformedKey("content", "an object (the root block)") }

        let fullSlug = Self.normalizedSlug(rawSlug)
        let lastSegment = fullSlug.split(separator: "/").last.map(String.init) ?? fullSlug
        let name = object["name"]?.stringValue ?? ""
        storage = Storage(
            uuid: uuid,
            id: object["id"]?.numberValue.flatMap { $0.isFinite ? Int(exactly: $0) : nil },
            name: name.isEmpty ? lastSegment : name,
            slug: object["slug"]?.stringValue ?? lastSegment,
            fullSlug: fullSlug,
            content: content,
            raw: object,
            digest: digest)
    }

    /// The keys every story object must have (not null): `uuid`, `full_slug` and `content`.
    public static let requiredKeys = ["uuid", "full_slug", "content"]

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
    public var rootComponent: String? { content["component"]?.stringValue }

    /// A string field of the story object (such as `published_at`), when present and non-empty.
    public func string(_ key: String) -> String? {
        guard let value = raw[key]?.stringValue, !value.isEmpty else { return nil }
        return value
    }

    /// The tags, from `tag_list` (an array of strings); empty when absent.
    public var tags: [String] { raw["tag_list"]?.arrayValue?.compactMap(\.stringValue) ?? [] }

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
