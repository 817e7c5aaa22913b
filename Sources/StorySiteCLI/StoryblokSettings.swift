import Foundation
import StoryModel
import StorySource

/// The Content Delivery API settings from `storysite.json` (`source.storyblok`) and the command
/// line. The token is never read from the file: it comes from `--token` or `STORYBLOK_TOKEN`.
struct StoryblokSettings: Sendable, Equatable {
    var region: String?
    var apiURL: String?
    var version: String?
    var language: String?

    static let regions = StoryblokRegion.allCases.map(\.rawValue)
    static let versions = ["published", "draft"]
    private static let knownKeys = ["region", "apiURL", "version", "language"]

    init() {}

    init(json object: JSONObject) throws(ConfigurationError) {
        for key in object.keys where !Self.knownKeys.contains(key) {
            if key == "token" {
                throw ConfigurationError.at(
                    "source.storyblok.token", "does not belong in a file that gets committed; set STORYBLOK_TOKEN instead")
            }
            throw ConfigurationError.at("source.storyblok.\(key)", "is not a setting; known settings: " + Self.knownKeys.joined(separator: ", "))
        }
        func string(_ key: String, in choices: [String]? = nil) throws(ConfigurationError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.stringValue, !text.isEmpty, choices?.contains(text) ?? true else {
                throw ConfigurationError.at(
                    "source.storyblok.\(key)", choices.map { "must be one of \($0.joined(separator: ", "))" } ?? "must be a non-empty string")
            }
            return text
        }
        region = try string("region", in: Self.regions)
        apiURL = try string("apiURL")
        version = try string("version", in: Self.versions)
        language = try string("language")
    }

    /// The source configuration for `token`; the API base is `apiURL` when set, else the region's.
    func configuration(token: String, listsAllStories: Bool) -> StoryblokConfiguration {
        let version = StoryblokConfiguration.Version(rawValue: self.version ?? "published") ?? .published
        if let apiURL, let url = URL(string: apiURL) {
            return StoryblokConfiguration(
                token: token, baseURL: url, version: version, language: language, listsAllStories: listsAllStories)
        }
        let region = region.flatMap(StoryblokRegion.init(rawValue:)) ?? .eu
        return StoryblokConfiguration(
            token: token, region: region, version: version, language: language, listsAllStories: listsAllStories)
    }
}
