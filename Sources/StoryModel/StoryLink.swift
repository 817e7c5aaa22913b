/// A link to a story as content stores it: a multilink with `linktype: "story"` or a richtext
/// link mark with `linktype: "story"`. The crawler follows it; the renderer resolves it with
/// ``lookupOrder``.
public struct StoryLink: Sendable, Hashable {
    /// The target as written: `.uuid(id)` when the link has an id, otherwise `.slug(cached_url)`.
    public var reference: StoryReference
    /// The anchor (`#` not included), when non-empty.
    public var anchor: String?
    /// The target's slug when the link was saved (`cached_url`, or a link mark's `href`); may be
    /// stale. Leading `/`, query and fragment removed; nil when empty.
    public var cachedURL: String?
    /// The target story itself, when the content was fetched with resolved links and the
    /// embedded object is a complete story.
    public var embeddedStory: Story?

    public init(reference: StoryReference, anchor: String? = nil, cachedURL: String? = nil, embeddedStory: Story? = nil) {
        self.reference = reference
        self.anchor = anchor
        self.cachedURL = cachedURL
        self.embeddedStory = embeddedStory
    }

    /// Reads a multilink object; nil unless its `linktype` is `story` and its `id` or
    /// `cached_url` is non-empty (an empty story link is "no link").
    public init?(multilink: JSONObject) {
        self.init(multilink, identifierKey: "id", cachedURLKey: "cached_url")
    }

    /// Reads the multilink object at `index` of `tape`, as ``init(multilink:)`` reads a tree.
    public init?(multilink index: Int, of tape: JSONTape, _ reader: JSONTape.Reader) {
        self.init(index, of: tape, reader, identifierKey: "id", cachedURLKey: "cached_url")
    }

    /// Reads the `attrs` of a richtext link mark; nil unless its `linktype` is `story` and its
    /// `uuid` or `href` is non-empty.
    public init?(linkMarkAttributes attributes: JSONObject) {
        self.init(attributes, identifierKey: "uuid", cachedURLKey: "href")
    }

    /// Reads the link mark `attrs` object at `index` of `tape`, as
    /// ``init(linkMarkAttributes:)`` reads a tree.
    public init?(linkMarkAttributes index: Int, of tape: JSONTape, _ reader: JSONTape.Reader) {
        self.init(index, of: tape, reader, identifierKey: "uuid", cachedURLKey: "href")
    }

    /// A link object whose target is under `identifierKey`, its saved slug under `cachedURLKey`.
    private init?(_ object: JSONObject, identifierKey: String, cachedURLKey: String) {
        guard object["linktype"]?.stringValue == "story" else { return nil }
        self.init(
            identifier: Self.text(object[identifierKey]),
            slug: Self.text(object[cachedURLKey]).flatMap(Self.slug(fromCachedURL:)),
            anchor: Self.text(object["anchor"]),
            embedded: Self.story(object["story"]))
    }

    /// ``init(_:identifierKey:cachedURLKey:)`` of the object at `index` of a tape, read in one
    /// pass over its entries (every link of every story is read here, by the crawl and again by
    /// the render).
    private init?(_ index: Int, of tape: JSONTape, _ reader: JSONTape.Reader, identifierKey: StaticString, cachedURLKey: StaticString) {
        guard reader.kind(at: index) == .object else { return nil }
        typealias Reader = JSONTape.Reader
        var isStory = false
        var identifier: Int?, cachedURL: Int?, anchor: Int?, story: Int?
        reader.forEachEntry(ofObject: index) { key, value in
            let name = reader.bytes(at: key)
            if Reader.equal(name, "linktype") {
                isStory = reader.isString(at: value, equalTo: "story")
            } else if Reader.equal(name, identifierKey) {
                identifier = value
            } else if Reader.equal(name, cachedURLKey) {
                cachedURL = value
            } else if Reader.equal(name, "anchor") {
                anchor = value
            } else if Reader.equal(name, "story") {
                story = value
            }
            return true
        }
        guard isStory else { return nil }
        self.init(
            identifier: Self.text(reader, identifier),
            slug: Self.slug(reader, cachedURL),
            anchor: Self.text(reader, anchor),
            embedded: Self.story(story, of: tape, reader))
    }

    /// A link with an identifier, or failing that a slug; nil with neither.
    private init?(identifier: String?, slug: String?, anchor: String?, embedded: Story?) {
        if let identifier {
            reference = .uuid(identifier)
        } else if let slug {
            reference = .slug(slug)
        } else {
            return nil
        }
        self.cachedURL = slug
        self.anchor = anchor
        embeddedStory = embedded
    }

    /// The story a link's `story` holds, when the API resolved the link in place.
    private static func story(_ value: JSONValue?) -> Story? {
        guard case .object(let object)? = value else { return nil }
        return try? Story(json: object)
    }

    /// ``story(_:)`` of the value at `index` of `tape`.
    private static func story(_ index: Int?, of tape: JSONTape, _ reader: JSONTape.Reader) -> Story? {
        guard let index, reader.kind(at: index) == .object else { return nil }
        return try? Story(tape: tape, at: index)
    }

    /// The references to try, in order, to find the target: the id as a UUID, then as a numeric
    /// story id (some spaces and exports use `"2"`), then the cached slug.
    public var lookupOrder: [StoryReference] {
        var order = [reference]
        if case .uuid(let identifier) = reference {
            if let number = Int(identifier) { order.append(.id(number)) }
            if let cachedURL { order.append(.slug(cachedURL)) }
        }
        return order
    }

    /// A non-empty string (numbers written as numbers are accepted too), trimmed.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let string)?:
            let trimmed = string.trimmingWhitespace()
            return trimmed.isEmpty ? nil : trimmed
        case .number(let number)?:
            return Int(exactly: number).map(String.init)
        default:
            return nil
        }
    }

    /// ``text(_:)`` of the value at `index` of a tape, a string's trimmed from its bytes.
    private static func text(_ reader: JSONTape.Reader, _ index: Int?) -> String? {
        guard let index else { return nil }
        switch reader.kind(at: index) {
        case .string:
            let trimmed = reader.bytes(at: index).trimmingWhitespace()
            return trimmed.isEmpty ? nil : String(decoding: trimmed, as: UTF8.self)
        case .number:
            return text(reader.value(at: index))
        default:
            return nil
        }
    }

    /// `cached_url` and `href` are slugs, sometimes with a leading `/`, a query or a fragment;
    /// nil when nothing is left without them.
    private static func slug(fromCachedURL url: String) -> String? {
        url.withUTF8Bytes { slug(fromCachedURL: $0) }
    }

    /// ``slug(fromCachedURL:)`` of the value at `index` of a tape, a string's from its bytes.
    private static func slug(_ reader: JSONTape.Reader, _ index: Int?) -> String? {
        guard let index else { return nil }
        guard reader.kind(at: index) == .string else { return text(reader, index).flatMap(slug(fromCachedURL:)) }
        return slug(fromCachedURL: reader.bytes(at: index).trimmingWhitespace())
    }

    /// ``slug(fromCachedURL:)`` of trimmed UTF-8 bytes: `/`, `#` and `?` are ASCII, so cutting
    /// at them leaves whole characters.
    private static func slug(fromCachedURL url: UnsafeBufferPointer<UInt8>) -> String? {
        let end = url.firstIndex { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "?") } ?? url.endIndex
        var start = url.startIndex
        while start < end, url[start] == UInt8(ascii: "/") { start += 1 }
        return start == end ? nil : String(decoding: UnsafeBufferPointer(rebasing: url[start..<end]), as: UTF8.self)
    }
}
