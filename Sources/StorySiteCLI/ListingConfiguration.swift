import SiteBuild
import StoryCrawl
import StoryModel

/// Reads the `listings` and `collections` settings of `storysite.json`: each mistake is a
/// ``ConfigurationError`` naming the key (`listings.blog/.perPage`) and what is wrong.
enum ListingConfiguration {
    static let listingKeys = ["sort", "perPage", "feed", "feedSize", "summary"]
    static let collectionKeys = ["folder", "recursive", "component", "tag", "sort", "limit"]

    /// `"listings": {"blog/": {"sort": "first_published_at desc", "perPage": 5, "feed": true}}`,
    /// by folder (a trailing slash added where it is missing).
    static func listings(_ value: JSONValue) throws(ConfigurationError) -> [String: ListingSettings] {
        guard case .object(let folders) = value else {
            throw .at("listings", "must be an object of folders, such as {\"blog/\": {\"sort\": \"first_published_at desc\"}}")
        }
        var listings: [String: ListingSettings] = [:]
        for entry in folders {
            let key = "listings.\(entry.key)"
            let folder = Story.normalizedSlug(entry.key)
            guard !folder.isEmpty else { throw .at(key, "must name a folder, such as \"blog/\"") }
            guard case .object(let fields) = entry.value else { throw .at(key, "must be an object such as {\"sort\": \"name\"}") }
            try ConfigurationError.checkKeys(fields, known: listingKeys, in: key)
            var settings = ListingSettings()
            settings.order = try order(fields["sort"], key: key) ?? .standard
            settings.perPage = try positiveInteger(fields["perPage"], key: key + ".perPage")
            if let feed = fields["feed"] {
                guard let flag = feed.boolValue else { throw .at(key + ".feed", "must be true or false") }
                settings.feed = flag
            }
            settings.feedSize = try positiveInteger(fields["feedSize"], key: key + ".feedSize") ?? settings.feedSize
            if let summary = fields["summary"] {
                guard let text = summary.stringValue, text.hasPrefix("content."), text.count > "content.".count else {
                    throw .at(key + ".summary", "must name a field of the story's content, such as \"content.excerpt\"")
                }
                settings.summaryField = String(text.dropFirst("content.".count))
            }
            listings[folder.hasSuffix("/") ? folder : folder + "/"] = settings
        }
        return listings
    }

    /// `"collections": {"latest": {"folder": "blog/", "sort": "first_published_at desc", "limit": 3}}`,
    /// in name order.
    static func collections(_ value: JSONValue) throws(ConfigurationError) -> [CollectionSettings] {
        guard case .object(let named) = value else {
            throw .at("collections", "must be an object of named collections, such as {\"latest\": {\"folder\": \"blog/\", \"limit\": 3}}")
        }
        var collections: [CollectionSettings] = []
        for entry in named {
            let key = "collections.\(entry.key)"
            guard !entry.key.isEmpty else { throw .at(key, "must have a name") }
            guard case .object(let fields) = entry.value else { throw .at(key, "must be an object such as {\"folder\": \"blog/\"}") }
            try ConfigurationError.checkKeys(fields, known: collectionKeys, in: key)
            var selection = StorySelection()
            if let folderValue = fields["folder"] {
                guard let folder = folderValue.stringValue.map(Story.normalizedSlug), !folder.isEmpty else {
                    throw .at(key + ".folder", "must name a folder, such as \"blog/\"")
                }
                selection.folder = folder.hasSuffix("/") ? folder : folder + "/"
            }
            // Without a folder, the whole space: every depth of it.
            selection.recursive = fields["folder"] == nil
            if let recursive = fields["recursive"] {
                guard let flag = recursive.boolValue else { throw .at(key + ".recursive", "must be true or false") }
                selection.recursive = flag
            }
            selection.component = try text(fields["component"], key: key + ".component")
            selection.tag = try text(fields["tag"], key: key + ".tag")
            selection.order = try order(fields["sort"], key: key) ?? .standard
            selection.limit = try positiveInteger(fields["limit"], key: key + ".limit")
            collections.append(CollectionSettings(name: entry.key, selection: selection))
        }
        return collections.sorted { $0.name < $1.name }
    }

    private static func order(_ value: JSONValue?, key: String) throws(ConfigurationError) -> StoryOrder? {
        guard let value else { return nil }
        guard let text = value.stringValue else { throw .at(key + ".sort", "must be a string such as \"first_published_at desc\"") }
        do {
            return try StoryOrder(parsing: text)
        } catch {
            throw .at(key + ".sort", error.message)
        }
    }

    private static func positiveInteger(_ value: JSONValue?, key: String) throws(ConfigurationError) -> Int? {
        guard let value else { return nil }
        guard case .number(let number) = value, let integer = Int(exactly: number), integer > 0 else {
            throw .at(key, "must be a positive whole number")
        }
        return integer
    }

    private static func text(_ value: JSONValue?, key: String) throws(ConfigurationError) -> String? {
        guard let value else { return nil }
        guard let text = value.stringValue, !text.isEmpty else { throw .at(key, "must be a non-empty string") }
        return text
    }
}
