import Foundation

/// One Content Delivery API request: an endpoint under the base URL and its query, without the
/// token, version, cache version and language, which ``StoryblokClient`` adds.
struct StoryblokRequest: Sendable {
    /// The path under the base, already percent-encoded (`stories`, `stories/blog/my%20post`).
    var endpoint: String
    var query: [(name: String, value: String)]
    /// How many entries the answer may hold, which sets the rate limit: `per_page` for
    /// listings, 1 for a single story or the space.
    var entries: Int

    init(endpoint: String, query: [(name: String, value: String)] = [], entries: Int = 1) {
        self.endpoint = endpoint
        self.query = query
        self.entries = entries
    }

    /// `stories/<full_slug>`, each path segment encoded.
    static func story(slug: String) -> StoryblokRequest {
        let path = slug.split(separator: "/", omittingEmptySubsequences: false).map { encodePathSegment(String($0)) }
        return StoryblokRequest(endpoint: "stories/" + path.joined(separator: "/"))
    }

    /// The URL with `token` as the token: the real one to send, or ``TokenRedaction/mask`` to show.
    func url(base: URL, extra: [(name: String, value: String)], token: String) -> String {
        var base = base.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let items = (query + extra).map { "\($0.name)=\(Self.encodeQueryValue($0.value))" }
        let tokenValue = token == TokenRedaction.mask ? token : Self.encodeQueryValue(token)
        return base + "/" + endpoint + "?" + (items + ["token=" + tokenValue]).joined(separator: "&")
    }

    /// A query value with everything but unreserved characters and the list separator `,`
    /// (and `/`, common in slugs) percent-encoded.
    static func encodeQueryValue(_ value: String) -> String {
        encode(value, keeping: ",/")
    }

    private static func encodePathSegment(_ segment: String) -> String {
        encode(segment, keeping: "")
    }

    private static func encode(_ text: String, keeping extra: String) -> String {
        let kept = Set(extra.utf8)
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where kept.contains(byte):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }
}
