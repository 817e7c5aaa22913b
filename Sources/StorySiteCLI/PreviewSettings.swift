import Foundation
import StoryModel

/// `preview` in `storysite.json`: how `serve --version draft` works with Storyblok's Visual
/// Editor. `bridge` is the URL of the Storyblok Bridge script its pages load.
struct PreviewSettings: Sendable, Equatable {
    /// Storyblok's published v2 bridge.
    static let defaultBridge = "https://app.storyblok.com/f/storyblok-v2-latest.js"
    private static let knownKeys = ["bridge"]

    var bridge: String?

    init(json: JSONValue) throws(ConfigurationError) {
        guard case .object(let fields) = json else {
            throw .at("preview", "must be an object such as {\"bridge\": \"\(Self.defaultBridge)\"}")
        }
        try ConfigurationError.checkKeys(fields, known: Self.knownKeys, in: "preview")
        if let value = fields["bridge"] {
            guard let text = value.stringValue, let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                  url.host != nil else {
                throw .at("preview.bridge", "must be the absolute http(s) URL of the bridge script, such as \"\(Self.defaultBridge)\"")
            }
            bridge = text
        }
    }
}
