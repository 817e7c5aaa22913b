import Foundation
import StoryModel

/// Stories read from a Storyblok space through the Content Delivery API (v2).
///
/// Each batch the crawler asks for (one BFS level) becomes as few requests as the API allows:
/// UUID references in `stories?by_uuids=…` and then the slug references not already answered in
/// `stories?by_slugs=…`, 25 per request (the most stories per second under the documented
/// limits), all sent concurrently within the rate limiter. Single-story requests are used only
/// where a list cannot serve: numeric ids (`stories/<id>`), and UUIDs or slugs holding a comma
/// or `*` (`stories/<uuid>?find_by=uuid`, `stories/<slug>`). Stories that arrive in a
/// response's `rels` or `links` are kept and never fetched. A reference the API does not know
/// is simply absent from the result, like a missing file in a folder.
///
/// Failures throw ``StoryblokError``, which shows the request with the token as `***`.
public final class StoryblokSource: StorySource {
    /// Stories per list request: at most 25 keeps the 50 requests per second limit, the most
    /// stories per second of the documented tiers (25 × 50, against 50 × 15, 75 × 10, 100 × 6).
    public static let batchSize = 25
    /// Stories per `starts_with` request: the endpoint's maximum, since a listing needs every
    /// story of its folder and fewer, larger requests finish sooner within the limits.
    static let queryPageSize = 100
    /// Link entries per `links` request (the endpoint's maximum).
    static let linksPerPage = 1000

    let client: StoryblokClient
    private let store = StoryStore()

    /// A source for `configuration`; with `cacheVersion` (a `cv` just read from `spaces/me`),
    /// published requests send it instead of reading it first.
    public init(configuration: StoryblokConfiguration, cacheVersion: Int? = nil) {
        client = StoryblokClient(configuration: configuration, cacheVersion: cacheVersion)
    }

    /// `the Storyblok space at api.storyblok.com/v2/cdn`.
    public var description: String {
        let base = client.configuration.baseURL
        let shown = (base.host ?? base.absoluteString) + (base.port.map { ":\($0)" } ?? "") + base.path
        return "the Storyblok space at " + TokenRedaction.redact(shown, token: client.configuration.token)
    }

    /// The HTTP requests sent so far (retries included; redirects followed count once).
    public var requestsSent: Int { client.requestsSent }

    public func stories(for references: [StoryReference]) async throws -> [StoryReference: Story] {
        var uuids: [String] = [], slugs: [String] = [], singles: [StoryReference] = []
        var seenUUIDs: Set<String> = [], seenSlugs: Set<String> = []
        for reference in references where store.story(for: reference) == nil {
            switch reference {
            case .uuid(let uuid):
                if !Self.listable(uuid) { singles.append(reference) } else if seenUUIDs.insert(uuid).inserted { uuids.append(uuid) }
            case .slug(let slug):
                let key = SlugLookup.key(slug)
                if key.isEmpty { continue }
                if !Self.listable(key) || key.contains("*") {
                    singles.append(reference)
                } else if seenSlugs.insert(key).inserted {
                    slugs.append(key)
                }
            case .id:
                singles.append(reference)
            }
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for batch in uuids.chunked(Self.batchSize) {
                group.addTask { try await self.list("by_uuids", Array(batch)) }
            }
            for reference in Set(singles) {
                group.addTask { try await self.fetchSingle(reference) }
            }
            try await group.waitForAll()
        }
        // Slugs last: a story just fetched by UUID may already answer them.
        let remaining = slugs.filter { store.story(for: .slug($0)) == nil }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for batch in remaining.chunked(Self.batchSize) {
                // A slug reference finds a folder's start page too (`blog` → `blog/`).
                let values = batch.flatMap { [$0, $0 + "/"] }
                group.addTask { try await self.list("by_slugs", values) }
            }
            try await group.waitForAll()
        }

        var found: [StoryReference: Story] = [:]
        for reference in references {
            if let story = store.story(for: reference) { found[reference] = story }
        }
        return found
    }

    /// When the configuration asks for it, every story of the space (in `full_slug` order):
    /// the `links` listing names them, and those not yet received are fetched by UUID.
    /// Otherwise nil.
    public func allStories() async throws -> [Story]? {
        guard client.configuration.listsAllStories else { return nil }
        let first = try await linkPage(1)
        let rest = try await ListingPages.rest(after: first.entries, total: first.total, pageSize: Self.linksPerPage, key: \.uuid) {
            try await self.linkPage($0).entries
        }
        let links = (first.entries + rest).filter { !$0.isFolder }.map(\.uuid)
        let stories = try await stories(for: links.map(StoryReference.uuid))
        return stories.values.sorted { $0.fullSlug.utf8Precedes($1.fullSlug) }
    }

    /// Every story below the query's folder (`starts_with`), with its tag (`with_tag`), 100 per
    /// request (the endpoint's maximum), the further pages sent concurrently once the first
    /// says how many there are. The stories are kept, so later lookups need no request.
    public func stories(matching query: StoryQuery) async throws -> [Story] {
        let parameters = (query.folder.isEmpty ? [] : [(name: "starts_with", value: query.folder)])
            + (query.tag.map { [(name: "with_tag", value: $0)] } ?? [])
        let stories = try await everyPage(parameters)
        var seen: Set<String> = []
        return stories.filter { query.matches($0) && seen.insert($0.uuid).inserted }
            .sorted { $0.fullSlug.utf8Precedes($1.fullSlug) }
    }

    /// Every story a `stories` listing with `parameters` answers, 100 per request, the further
    /// pages sent concurrently once the first says how many there are, in the API's order.
    func everyPage(_ parameters: [(name: String, value: String)]) async throws -> [Story] {
        let first = try await queryPage(parameters, page: 1)
        let rest = try await ListingPages.rest(after: first.stories, total: first.total, pageSize: Self.queryPageSize, key: \.uuid) {
            try await self.queryPage(parameters, page: $0).stories
        }
        return first.stories + rest
    }

    /// One page of a `stories` listing: its stories and the `Total` header.
    private func queryPage(_ parameters: [(name: String, value: String)], page: Int) async throws -> (stories: [Story], total: Int?) {
        let request = StoryblokRequest(
            endpoint: "stories",
            query: parameters + [("per_page", String(Self.queryPageSize)), ("page", String(page))],
            entries: Self.queryPageSize)
        guard let reply = try await client.get(request) else { return ([], 0) }
        return (try learn(reply), reply.total)
    }

    /// One `stories?<name>=<values>` listing, with its further pages when `Total` says so: at
    /// most as many as the values can fill.
    private func list(_ name: String, _ values: [String]) async throws {
        let joined = values.joined(separator: ",")
        let first = try await listPage(name, joined, page: 1)
        _ = try await ListingPages.rest(
            after: first.stories, total: first.total, pageSize: Self.batchSize, capacity: values.count, key: \.uuid
        ) { try await self.listPage(name, joined, page: $0).stories }
    }

    /// Fetches and learns one page of a listing: its stories and the `Total` header.
    private func listPage(_ name: String, _ values: String, page: Int) async throws -> (stories: [Story], total: Int?) {
        let request = StoryblokRequest(
            endpoint: "stories",
            query: [(name, values), ("per_page", String(Self.batchSize)), ("page", String(page))],
            entries: Self.batchSize)
        guard let reply = try await client.get(request) else { return ([], 0) }
        return (try learn(reply), reply.total)
    }

    /// `stories/<id>`, `stories/<uuid>?find_by=uuid` or `stories/<slug>`.
    private func fetchSingle(_ reference: StoryReference) async throws {
        let request: StoryblokRequest
        switch reference {
        case .uuid(let uuid):
            request = StoryblokRequest.story(slug: uuid)
        case .slug(let slug):
            request = StoryblokRequest.story(slug: slug)
        case .id(let id):
            request = StoryblokRequest(endpoint: "stories/\(id)")
        }
        var query = request
        if case .uuid = reference { query.query.append(("find_by", "uuid")) }
        guard let reply = try await client.get(query) else { return }
        if case .id(let id) = reference, let story = reply.json["story"]?.objectValue, story["id"]?.numberValue != Double(id) {
            return  // `stories/<digits>` found a slug, not this id
        }
        try learn(reply)
    }

    /// One entry of the `links` listing.
    private struct LinkEntry: Sendable {
        var uuid: String
        var isFolder: Bool
    }

    /// One page of `links`: its entries (folders too) and the `Total` header.
    private func linkPage(_ page: Int) async throws -> (entries: [LinkEntry], total: Int?) {
        let request = StoryblokRequest(
            endpoint: "links",
            query: [("per_page", String(Self.linksPerPage)), ("page", String(page)), ("paginated", "1")],
            entries: Self.linksPerPage)
        guard let reply = try await client.get(request) else { return ([], 0) }
        let values: [JSONValue]
        switch reply.json["links"] {
        case .object(let object)?: values = object.entries.map(\.value)
        case .array(let array)?: values = array
        default: throw malformed(reply, "no 'links' object")
        }
        let entries = values.compactMap { value -> LinkEntry? in
            value["uuid"]?.stringValue.map { LinkEntry(uuid: $0, isFolder: value["is_folder"]?.boolValue == true) }
        }
        return (entries, reply.total)
    }

    /// Keeps the stories of a reply: `story` or `stories`, and those resolved in `rels` and
    /// `links` (entries there that are not whole stories are skipped). Returns the reply's own
    /// stories (`story` or `stories`), in its order.
    @discardableResult
    private func learn(_ reply: StoryblokClient.Reply) throws -> [Story] {
        var primary: [(String, JSONValue)] = []
        if let story = reply.json["story"] { primary.append(("story", story)) }
        for (index, story) in (reply.json["stories"]?.arrayValue ?? []).enumerated() { primary.append(("stories[\(index)]", story)) }
        var stories: [Story] = []
        for (place, value) in primary {
            guard case .object(let object) = value else { throw malformed(reply, "\(place) is not an object") }
            do {
                stories.append(try Story(json: inDefaultStructure(object)))
            } catch {
                throw malformed(reply, "\(place): \(error.description)")
            }
        }
        let primaryCount = stories.count
        for key in ["rels", "links"] {
            for value in reply.json[key]?.arrayValue ?? [] {
                if let object = value.objectValue, let story = try? Story(json: inDefaultStructure(object)) { stories.append(story) }
            }
        }
        store.learn(stories)
        return Array(stories.prefix(primaryCount))
    }

    /// A story the API answered in the configured language, in the content tree's one
    /// structure: with the Translatable Slugs app, the API answers `full_slug` translated and the
    /// default in `default_full_slug`; the default becomes `full_slug`, so that slug lookups,
    /// folders and listings are the same in every language (as with a translated local folder),
    /// and the translated path stays readable through ``StoryModel/Story/path(in:)`` from
    /// `translated_slugs`. The name is that of the language's `translated_slugs` entry when it
    /// has one, as ``StoryModel/Story/translated(to:isDefault:)`` names a folder's story.
    private func inDefaultStructure(_ object: JSONObject) -> JSONObject {
        guard let language = client.configuration.language, language != "default" else { return object }
        var object = object
        if let defaultSlug = object["default_full_slug"]?.stringValue, !defaultSlug.isEmpty,
            object["full_slug"]?.stringValue != defaultSlug
        {
            object["full_slug"] = .string(defaultSlug)
        }
        let entry = object["translated_slugs"]?.arrayValue?.first { $0["lang"]?.stringValue == language }
        if let name = entry?["name"]?.stringValue, !name.isEmpty, object["name"]?.stringValue != name {
            object["name"] = .string(name)
        }
        return object
    }

    private func malformed(_ reply: StoryblokClient.Reply, _ what: String) -> StoryblokError {
        StoryblokError(request: reply.request, problem: .malformedResponse(what))
    }

    /// Whether a value can go in a comma-separated list parameter.
    private static func listable(_ value: String) -> Bool {
        !value.isEmpty && !value.contains(",")
    }
}

extension Array {
    fileprivate func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
