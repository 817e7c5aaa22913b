import Foundation
import SiteBuild
import StoryModel
import StoryRender

/// What `storysite.json` in the working folder sets: the same things as the command line, by
/// long name. Flags override it.
struct Configuration: Sendable, Equatable {
    static let fileName = SiteSettings.configurationFile

    var source: String?
    /// `source: {"storyblok": {...}}`: the Content Delivery API settings, the token excepted.
    var storyblok: StoryblokSettings?
    var fallback: String?
    var templates: String?
    /// `static`: the folder of root files copied to the output as they are.
    var staticFolder: String?
    var output: String?
    var entries: [String]?
    var baseURL: String?
    var site = JSONObject()
    var markdownUnsafe: Bool?
    var global: String?
    var strict: Bool?
    var jobs: Int?
    /// `listings`: how start pages list their folders, by folder.
    var listings: [String: ListingSettings] = [:]
    /// `collections`: the named collections, in name order.
    var collections: [CollectionSettings] = []
    /// `languages`: the codes of the languages to build, default first.
    var languages: [String] = []
    /// `translation`: how the space holds its languages.
    var translation: TranslationStrategy?
    /// `dates`: the date formats, name → ICU pattern; nil for the built-in ones.
    var dates: [String: String]?
    /// `timeZone`: the time zone dates are written in; nil for UTC.
    var timeZone: TimeZone?
    /// `images`: the responsive images' widths and format; nil for the defaults.
    var images: ImageSettings?
    /// `richtext`: heading ids and `page.toc`; nil for the defaults.
    var richtext: RichtextSettings?
    /// `preview`: how `serve` works with the Visual Editor; nil for the defaults.
    var preview: PreviewSettings?

    private static let knownKeys = [
        "source", "templates", "static", "output", "entry", "baseURL", "site", "markdown", "global", "strict", "jobs", "fallback",
        "listings", "collections", "languages", "translation", "dates", "timeZone", "images", "richtext", "preview",
    ]
    private static let imageKeys = ["widths", "format", "richtext"]
    private static let richtextKeys = ["headingIds"]

    /// Reads `storysite.json` from `folder`; an empty configuration when there is none.
    static func load(from folder: URL) throws(ConfigurationError) -> Configuration {
        let url = folder.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return Configuration() }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw ConfigurationError(location: "\(fileName):\(error.line):\(error.column)", message: error.message)
        }
        return try Configuration(json: json)
    }

    init() {}

    init(json: JSONValue) throws(ConfigurationError) {
        guard let object = json.objectValue else { throw ConfigurationError.at("", "must be a JSON object") }
        try ConfigurationError.checkKeys(object, known: Self.knownKeys)
        switch object["source"] {
        case .object(let settings)?:
            guard settings.keys == ["storyblok"], let api = settings["storyblok"]?.objectValue else {
                throw ConfigurationError.at("source", "must be a folder or {\"storyblok\": {...}}")
            }
            storyblok = try StoryblokSettings(json: api)
        default:
            source = try Self.string(object, "source")
        }
        fallback = try Self.string(object, "fallback")
        templates = try Self.string(object, "templates")
        staticFolder = try Self.string(object, "static")
        output = try Self.string(object, "output")
        baseURL = try Self.string(object, "baseURL")
        global = try Self.string(object, "global")
        switch object["entry"] {
        case nil: break
        case .string(let entry)?: entries = [entry]
        case .array(let values)? where values.allSatisfy({ $0.stringValue != nil }) && !values.isEmpty:
            entries = values.compactMap(\.stringValue)
        default: throw ConfigurationError.at("entry", "must be a slug or a non-empty array of slugs")
        }
        switch object["site"] {
        case nil: break
        case .object(let site)?: self.site = site
        default: throw ConfigurationError.at("site", "must be an object")
        }
        switch object["markdown"] {
        case nil: break
        case .object(let markdown)?:
            for key in markdown.keys where key != "unsafe" {
                throw ConfigurationError.at("markdown.\(key)", "is not a setting; known settings: unsafe")
            }
            if let unsafe = markdown["unsafe"] {
                guard let flag = unsafe.boolValue else { throw ConfigurationError.at("markdown.unsafe", "must be true or false") }
                markdownUnsafe = flag
            }
        default: throw ConfigurationError.at("markdown", "must be an object such as {\"unsafe\": false}")
        }
        if let value = object["strict"] {
            guard let flag = value.boolValue else { throw ConfigurationError.at("strict", "must be true or false") }
            strict = flag
        }
        if let value = object["jobs"] {
            guard case .number(let number) = value, let jobs = Int(exactly: number), (1...256).contains(jobs) else {
                throw ConfigurationError.at("jobs", "must be a whole number from 1 to 256")
            }
            self.jobs = jobs
        }
        if let value = object["listings"] { listings = try ListingConfiguration.listings(value) }
        if let value = object["collections"] { collections = try ListingConfiguration.collections(value) }
        languages = try Self.languages(object)
        if let value = object["translation"] {
            guard let strategy = value.stringValue.flatMap(TranslationStrategy.init(rawValue:)) else {
                throw .at("translation", "must be \"field\" or \"folder\"")
            }
            translation = strategy
        }
        dates = try Self.dates(object)
        if let value = object["timeZone"] {
            guard let name = value.stringValue, !name.isEmpty else {
                throw .at("timeZone", "must be a time zone's IANA name, such as \"Europe/Berlin\" or \"UTC\"")
            }
            guard let zone = TimeZone(identifier: name) else {
                throw .at("timeZone", "'\(name)' is not a time zone; use an IANA name, such as Europe/Berlin, America/New_York or UTC")
            }
            timeZone = zone
        }
        images = try Self.images(object)
        richtext = try Self.richtext(object)
        if let value = object["preview"] { preview = try PreviewSettings(json: value) }
    }

    /// `richtext`: `headingIds` (a bool), optional.
    private static func richtext(_ object: JSONObject) throws(ConfigurationError) -> RichtextSettings? {
        guard let value = object["richtext"] else { return nil }
        guard case .object(let fields) = value else {
            throw .at("richtext", "must be an object such as {\"headingIds\": true}")
        }
        try ConfigurationError.checkKeys(fields, known: richtextKeys, in: "richtext")
        var richtext = RichtextSettings()
        if let value = fields["headingIds"] {
            guard let flag = value.boolValue else { throw .at("richtext.headingIds", "must be true or false") }
            richtext.headingIds = flag
        }
        return richtext
    }

    /// `images`: `widths` (positive whole numbers), `format` (one the Image Service writes),
    /// `richtext` (a bool); each optional.
    private static func images(_ object: JSONObject) throws(ConfigurationError) -> ImageSettings? {
        guard let value = object["images"] else { return nil }
        guard case .object(let fields) = value else {
            throw .at("images", "must be an object such as {\"widths\": [480, 960, 1440], \"format\": \"webp\", \"richtext\": true}")
        }
        try ConfigurationError.checkKeys(fields, known: imageKeys, in: "images")
        var images = ImageSettings()
        if let value = fields["widths"] {
            guard case .array(let items) = value, !items.isEmpty else {
                throw .at("images.widths", "must be a non-empty array of widths in pixels, such as [480, 960, 1440]")
            }
            var widths: [Int] = []
            for item in items {
                guard case .number(let number) = item, let width = Int(exactly: number), (1...100_000).contains(width) else {
                    throw .at("images.widths", "'\(item.jsonText())' is not a width; use positive whole numbers of pixels, such as [480, 960, 1440]")
                }
                if !widths.contains(width) { widths.append(width) }
            }
            images.widths = widths.sorted()
        }
        if let value = fields["format"] {
            guard let format = value.stringValue, ImageSettings.formats.contains(format) else {
                throw .at("images.format", "must be one of " + ImageSettings.formats.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            images.format = format
        }
        if let value = fields["richtext"] {
            guard let flag = value.boolValue else { throw .at("images.richtext", "must be true or false") }
            images.richtext = flag
        }
        return images
    }

    /// `dates`: format names, each to a non-empty ICU pattern; no name the page contract uses.
    private static func dates(_ object: JSONObject) throws(ConfigurationError) -> [String: String]? {
        guard let value = object["dates"] else { return nil }
        guard case .object(let formats) = value else {
            throw .at("dates", "must be an object of format names and ICU date patterns, such as {\"date\": \"d MMMM yyyy\"}")
        }
        var patterns: [String: String] = [:]
        for entry in formats {
            let name = entry.key, pattern = entry.value
            guard DateFormats.isValidName(name) else {
                throw .at("dates.\(name)", "is not a format name: use letters, digits, _ and -, so that {{#name}}…{{/name}} can reach it")
            }
            guard !DateFormats.reservedNames.contains(name) else {
                throw .at("dates.\(name)", "would hide the '\(name)' every template sees; name the format otherwise (taken: "
                    + DateFormats.reservedNames.joined(separator: ", ") + ")")
            }
            guard let text = pattern.stringValue, !text.isEmpty else {
                throw .at("dates.\(name)", "must be a non-empty ICU date pattern, such as \"d MMMM yyyy\"")
            }
            patterns[name] = text
        }
        return patterns
    }

    /// `languages`: Storyblok codes, each once, the default first.
    private static func languages(_ object: JSONObject) throws(ConfigurationError) -> [String] {
        guard let value = object["languages"] else { return [] }
        guard case .array(let items) = value, !items.isEmpty else {
            throw .at("languages", "must be a non-empty array of language codes, the default first, such as [\"en\", \"de\"]")
        }
        var codes: [String] = []
        for item in items {
            guard let code = item.stringValue, SiteLanguage.isValidCode(code) else {
                throw .at("languages", "'\(item.stringValue ?? item.jsonText())' is not a language code; use Storyblok's codes, such as de, de-at or pt-br")
            }
            guard !codes.contains(code) else { throw .at("languages", "'\(code)' is listed twice") }
            codes.append(code)
        }
        return codes
    }

    private static func string(_ object: JSONObject, _ key: String) throws(ConfigurationError) -> String? {
        guard let value = object[key] else { return nil }
        guard let string = value.stringValue, !string.isEmpty else { throw .at(key, "must be a non-empty string") }
        return string
    }
}

/// A `storysite.json` that cannot be used: where (`storysite.json:3:1`, or the file) and what.
struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    var location: String
    var message: String

    static func at(_ key: String, _ problem: String) -> ConfigurationError {
        ConfigurationError(location: Configuration.fileName, message: key.isEmpty ? problem : "'\(key)' \(problem)")
    }

    /// Throws for the first key of `object` not among `known`, naming it under `prefix`
    /// (`images.formt`), suggesting the closest known key (the first of equals: `date` is
    /// 'dates', not 'site') and listing them all.
    static func checkKeys(_ object: JSONObject, known: [String], in prefix: String? = nil) throws(ConfigurationError) {
        for key in object.keys where !known.contains(key) {
            throw .at(prefix.map { "\($0).\(key)" } ?? key, "is not a setting" + EditDistance.didYouMean(key, among: known)
                + "; known settings: " + known.joined(separator: ", "))
        }
    }

    var description: String { "\(location): error: \(message)" }
}
