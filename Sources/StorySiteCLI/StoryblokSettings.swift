import Foundation
import NetworkLimits
import StoryModel
import StorySource

/// The Content Delivery API settings from `storysite.json` (`source.storyblok`) and the command
/// line. The token is never read from the file: it comes from `--token` or `STORYBLOK_TOKEN`.
struct StoryblokSettings: Sendable, Equatable {
    var region: String?
    var apiURL: String?
    var version: String?
    var language: String?
    /// `deadline`, `headersTimeout` (seconds) and `maxResponseMB`; unset ones keep
    /// ``NetworkLimits/api``'s.
    var limits = NetworkLimits.api

    static let regions = StoryblokRegion.allCases.map(\.rawValue)
    static let versions = ["published", "draft"]
    private static let knownKeys = ["region", "apiURL", "version", "language", "deadline", "headersTimeout", "maxResponseMB"]

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
        func positive(_ key: String, _ unit: String) throws(ConfigurationError) -> Double? {
            guard let value = object[key] else { return nil }
            guard let number = value.numberValue, number > 0, number <= 86_400 else {
                throw ConfigurationError.at("source.storyblok.\(key)", "must be a positive number of \(unit), such as 30")
            }
            return number
        }
        if let seconds = try positive("deadline", "seconds") { limits.deadline = .milliseconds(Int(seconds * 1000)) }
        if let seconds = try positive("headersTimeout", "seconds") { limits.headersTimeout = .milliseconds(Int(seconds * 1000)) }
        if let megabytes = try positive("maxResponseMB", "MiB") { limits.maximumBodySize = Int(megabytes * 1_048_576) }
    }

    /// The source configuration for `token`; the API base is `apiURL` when set, else the region's.
    func configuration(token: String, listsAllStories: Bool) -> StoryblokConfiguration {
        let version = StoryblokConfiguration.Version(rawValue: self.version ?? "published") ?? .published
        if let apiURL, let url = URL(string: apiURL) {
            return StoryblokConfiguration(
                token: token, baseURL: url, version: version, language: language, listsAllStories: listsAllStories, limits: limits)
        }
        let region = region.flatMap(StoryblokRegion.init(rawValue:)) ?? .eu
        return StoryblokConfiguration(
            token: token, region: region, version: version, language: language, listsAllStories: listsAllStories, limits: limits)
    }
}
