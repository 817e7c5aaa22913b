import Foundation
import NetworkLimits

/// How to reach a Storyblok space: the access token, the API base, which content version and
/// language, and how patiently. The token is never shown: not in `description`, not in
/// `dump` or the debugger.
public struct StoryblokConfiguration: Sendable, CustomStringConvertible, CustomReflectable {
    /// Published content (read through the space's cache version) or drafts (a preview token).
    public enum Version: String, Sendable {
        case published, draft
    }

    /// How failed requests are retried: 429, 5xx, timeouts and dropped connections are tried
    /// again up to `attempts` times in all, waiting `initialDelay`, then twice as long each
    /// time (up to `maximumDelay`), with random jitter, and at least as long as a
    /// `Retry-After` header asks.
    public struct RetryPolicy: Sendable, Equatable {
        public var attempts: Int
        public var initialDelay: Duration
        public var maximumDelay: Duration

        public init(attempts: Int = 5, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30)) {
            self.attempts = max(1, attempts)
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
        }
    }

    /// The access token (public or preview).
    public var token: String
    /// The API base, such as `https://api.storyblok.com/v2/cdn`.
    public var baseURL: URL
    public var version: Version
    /// The language code (`de`), or nil for the default language.
    public var language: String?
    /// Whether ``StoryblokSource/allStories()`` lists the whole space so that orphans are
    /// found; it costs one request per 1000 stories plus one per 25 stories not reached. When
    /// false (the default) it returns nil.
    public var listsAllStories: Bool
    /// The headers timeout, the deadline of each request with its retries, and the largest
    /// response body (``NetworkLimits/api`` by default).
    public var limits: NetworkLimits
    public var retry: RetryPolicy

    /// A configuration for a space in `region`.
    public init(
        token: String, region: StoryblokRegion = .eu, version: Version = .published, language: String? = nil,
        listsAllStories: Bool = false, limits: NetworkLimits = .api, retry: RetryPolicy = RetryPolicy()
    ) {
        self.init(
            token: token, baseURL: region.baseURL, version: version, language: language,
            listsAllStories: listsAllStories, limits: limits, retry: retry)
    }

    /// A configuration for any API base (a proxy, a test server).
    public init(
        token: String, baseURL: URL, version: Version = .published, language: String? = nil,
        listsAllStories: Bool = false, limits: NetworkLimits = .api, retry: RetryPolicy = RetryPolicy()
    ) {
        self.token = token
        self.baseURL = baseURL
        self.version = version
        self.language = language
        self.listsAllStories = listsAllStories
        self.limits = limits
        self.retry = retry
    }

    /// `https://api.storyblok.com/v2/cdn (published)`, without the token.
    public var description: String {
        "\(TokenRedaction.redact(baseURL.absoluteString, token: token)) (\(version.rawValue)\(language.map { ", language \($0)" } ?? ""))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "token": "***", "baseURL": baseURL, "version": version, "language": language as Any,
            "listsAllStories": listsAllStories, "limits": limits, "retry": retry,
        ])
    }
}
