import Foundation
import StoryModel

/// The fake API's stories, each encoded once, indexed as the endpoints look them up, and the
/// endpoints' JSON answers.
///
/// Languages (field-level translation): a request with `language=<code>` (other than
/// `default`) is answered with every story (single, listed, related) translated into the code
/// (``StoryModel/Story/translated(to:isDefault:)``) and, as with Storyblok's Translatable Slugs
/// app, its `full_slug` the translated path (``StoryModel/Story/path(in:)``), `default_full_slug`
/// the default one and `lang` the code. Stories are still found by their default slugs. Without
/// `language`, or with `default`, stories are answered without their `__i18n__` keys and with
/// `lang` `default`.
struct FakeCatalog: Sendable {
    struct Answer {
        var status: Int
        var body: [UInt8]
        /// For listings: the `Total` header.
        var total: Int?
        var perPage: Int = 0
    }

    private let stories: [Story]
    /// The stories in the default language, encoded.
    private let encoded: [[UInt8]]
    private let byUUID: [String: Int]
    private let bySlug: [String: Int]
    private let bySlugKey: [String: Int]
    private let byID: [Int: Int]
    private let links: [[UInt8]]

    init(_ stories: [Story]) {
        self.stories = stories
        encoded = stories.map { Array(JSONValue.object(Self.defaultLanguage($0)).jsonText().utf8) }
        var byUUID: [String: Int] = [:], bySlug: [String: Int] = [:], bySlugKey: [String: Int] = [:], byID: [Int: Int] = [:]
        for (position, story) in stories.enumerated() {
            if byUUID[story.uuid] == nil { byUUID[story.uuid] = position }
            if bySlug[story.fullSlug] == nil { bySlug[story.fullSlug] = position }
            if bySlugKey[SlugLookup.key(story.fullSlug)] == nil { bySlugKey[SlugLookup.key(story.fullSlug)] = position }
            if let id = story.id, byID[id] == nil { byID[id] = position }
        }
        (self.byUUID, self.bySlug, self.bySlugKey, self.byID) = (byUUID, bySlug, bySlugKey, byID)
        links = Self.links(of: stories)
    }

    /// The number of entries a request asks for, which sets its rate limit: `per_page` for
    /// listings (default 25), 1 for a single story or the space.
    static func entriesPerResponse(endpoint: String, query: [String: String]) -> Int {
        guard endpoint == "stories" || endpoint == "links" else { return 1 }
        return perPage(query, maximum: endpoint == "links" ? 1000 : 100)
    }

    func answer(endpoint: String, query: [String: String], spaceVersion: Int, relations: [String: [String]]) -> Answer {
        let language = query["language"].flatMap { $0.isEmpty || $0 == "default" ? nil : $0 }
        if endpoint == "spaces/me" {
            let space = #"{"space":{"id":1,"name":"Fake space","domain":"https://example.com/","version":\#(spaceVersion),"language_codes":[]}}"#
            return Answer(status: 200, body: Array(space.utf8))
        }
        if endpoint == "stories" {
            return list(query: query, language: language, spaceVersion: spaceVersion, relations: relations)
        }
        if endpoint == "links" {
            let perPage = Self.perPage(query, maximum: 1000)
            let page = Self.page(links, query: query, perPage: perPage)
            var body = Array(#"{"links":{"#.utf8)
            body += page.joined(separator: [UInt8(ascii: ",")])
            body += Array("}}".utf8)
            return Answer(status: 200, body: body, total: links.count, perPage: perPage)
        }
        if endpoint.hasPrefix("stories/") {
            let key = String(endpoint.dropFirst("stories/".count))
            let position: Int?
            if query["find_by"] == "uuid" {
                position = byUUID[key]
            } else {
                position = bySlugKey[SlugLookup.key(key)] ?? Int(key).flatMap { byID[$0] }
            }
            guard let position else {
                return Answer(status: 404, body: Array(#"{"error":"This record could not be found"}"#.utf8))
            }
            var body = Array(#"{"story":"#.utf8) + json(position, language: language)
            body += tail(for: [position], language: language, spaceVersion: spaceVersion, relations: relations)
            return Answer(status: 200, body: body)
        }
        return Answer(status: 404, body: Array(#"{"error":"Not Found"}"#.utf8))
    }

    /// `stories` filtered by `by_uuids` or `by_slugs`, or by `starts_with`, `with_tag`,
    /// `published_at_gt` and `updated_at_gt`, in
    /// catalog order, one page of it.
    private func list(query: [String: String], language: String?, spaceVersion: Int, relations: [String: [String]]) -> Answer {
        let positions: [Int]
        if let uuids = query["by_uuids"] {
            positions = Set(uuids.split(separator: ",").compactMap { byUUID[String($0)] }).sorted()
        } else if let slugs = query["by_slugs"] {
            positions = Set(slugs.split(separator: ",").compactMap { bySlug[Story.normalizedSlug(String($0))] }).sorted()
        } else {
            positions = stories.indices.filter { position in
                let story = stories[position]
                return query["starts_with"].map { story.fullSlug.hasPrefix($0) } ?? true
                    && query["with_tag"].map { story.tags.contains($0) } ?? true
                    && query["published_at_gt"].map { Self.isLater(story.string("published_at"), than: $0) } ?? true
                    && query["updated_at_gt"].map { Self.isLater(story.string("updated_at") ?? story.string("published_at"), than: $0) } ?? true
            }
        }
        let perPage = Self.perPage(query, maximum: 100)
        let page = Self.page(positions, query: query, perPage: perPage)
        var body = Array(#"{"stories":["#.utf8)
        body += page.map { json($0, language: language) }.joined(separator: [UInt8(ascii: ",")])
        body += Array("]".utf8)
        body += tail(for: Array(page), language: language, spaceVersion: spaceVersion, relations: relations)
        return Answer(status: 200, body: body, total: positions.count, perPage: perPage)
    }

    /// `,"cv":N,"rels":[…],"links":[]}`: the related stories of those answered.
    private func tail(for positions: [Int], language: String?, spaceVersion: Int, relations: [String: [String]]) -> [UInt8] {
        var seen: Set<String> = []
        let related = positions.flatMap { relations[stories[$0].uuid] ?? [] }.compactMap { uuid -> [UInt8]? in
            guard seen.insert(uuid).inserted, let position = byUUID[uuid] else { return nil }
            return json(position, language: language)
        }
        var bytes = Array(#","cv":\#(spaceVersion),"rels":["#.utf8)
        bytes += related.joined(separator: [UInt8(ascii: ",")])
        bytes += Array(#"],"links":[]}"#.utf8)
        return bytes
    }

    /// The story at `position` as JSON in `language` (nil: the default language, encoded once).
    private func json(_ position: Int, language: String?) -> [UInt8] {
        guard let language else { return encoded[position] }
        let story = stories[position]
        var object = story.translated(to: language, isDefault: false).raw
        object["full_slug"] = .string(story.path(in: language))
        object["default_full_slug"] = .string(story.fullSlug)
        return Array(JSONValue.object(object).jsonText().utf8)
    }

    /// The story object in the default language: `story.translated(to: "default", isDefault:
    /// true).raw`, made without the digest that translation computes (a tree hash per story).
    private static func defaultLanguage(_ story: Story) -> JSONObject {
        var object = story.raw
        object["content"] = story.content.translated(to: "default", isDefault: true)
        object["lang"] = .string("default")
        return object
    }

    /// Whether the ISO 8601 time `stamp` (`2025-05-02T15:20:44.902Z`) is after `minute`
    /// (`2025-05-02 15:20`, the API's date parameters, UTC).
    private static func isLater(_ stamp: String?, than minute: String) -> Bool {
        guard let stamp else { return false }
        return stamp > minute.replacingOccurrences(of: " ", with: "T") + ":00"
    }

    private static func perPage(_ query: [String: String], maximum: Int) -> Int {
        min(max(Int(query["per_page"] ?? "") ?? 25, 1), maximum)
    }

    private static func page<Element>(_ elements: [Element], query: [String: String], perPage: Int) -> ArraySlice<Element> {
        let page = max(Int(query["page"] ?? "") ?? 1, 1)
        let start = min((page - 1) * perPage, elements.count)
        return elements[start..<min(start + perPage, elements.count)]
    }

    /// The `links` entries: one per story, and one per folder its `full_slug` passes through.
    private static func links(of stories: [Story]) -> [[UInt8]] {
        var entries: [[UInt8]] = []
        var folders: Set<String> = []
        for story in stories {
            let segments = SlugLookup.key(story.fullSlug).split(separator: "/")
            for depth in segments.indices.dropLast() {
                let folder = segments[...depth].joined(separator: "/")
                guard folders.insert(folder).inserted else { continue }
                let entry = JSONValue.string("folder-\(folder)").jsonText() + ":" + JSONValue.object(JSONObject([
                    "uuid": .string("folder-\(folder)"), "slug": .string(folder), "is_folder": .bool(true),
                    "is_startpage": .bool(false), "published": .bool(false),
                ])).jsonText()
                entries.append(Array(entry.utf8))
            }
            let entry = JSONValue.string(story.uuid).jsonText() + ":" + JSONValue.object(JSONObject([
                "id": story.id.map { .number(Double($0)) } ?? .null, "uuid": .string(story.uuid),
                "slug": .string(story.fullSlug), "name": .string(story.name), "is_folder": .bool(false),
                "is_startpage": .bool(story.isStartPage), "published": .bool(true),
            ])).jsonText()
            entries.append(Array(entry.utf8))
        }
        return entries
    }

    /// The stories in the JSON files under `folder`, in path order.
    static func stories(in folder: URL) throws -> [Story] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) } ?? []
        var stories: [Story] = []
        for file in files {
            let value = try JSONValue(parsing: Array(try Data(contentsOf: file)))
            let objects: [JSONValue]
            if let story = value["story"] {
                objects = [story]
            } else if let list = value["stories"]?.arrayValue {
                objects = list
            } else {
                objects = [value]
            }
            for object in objects {
                guard let object = object.objectValue else { continue }
                stories.append(try Story(json: object))
            }
        }
        return stories
    }
}
