import FakeStoryblokAPI
import Foundation
import NetworkLimits
import StoryModel
@testable import StorySource

/// A story for the fake API: `uuid`, `full_slug`, an optional id, a `page` root block, and
/// `extra` keys (`published_at`).
func apiStory(_ uuid: String, _ slug: String, id: Int? = nil, extra: [String: JSONValue] = [:]) -> Story {
    var entries: [JSONObject.Entry] = [
        .init(key: "name", value: .string(slug)), .init(key: "uuid", value: .string(uuid)),
        .init(key: "full_slug", value: .string(slug)),
        .init(key: "content", value: .object(JSONObject(["component": .string("page"), "_uid": .string("b-\(uuid)")]))),
    ]
    if let id { entries.insert(.init(key: "id", value: .number(Double(id))), at: 0) }
    entries += extra.keys.sorted().map { JSONObject.Entry(key: $0, value: extra[$0]!) }
    return try! Story(json: JSONObject(entries))
}

/// `count` stories `post-<n>` with UUIDs `uuid-<n>` and ids `1000 + n`.
func numberedStories(_ count: Int) -> [Story] {
    (0..<count).map { apiStory("uuid-\($0)", "posts/post-\($0)", id: 1000 + $0) }
}

/// The token the fake accepts in these tests; long and distinctive so that a leak is found.
let secretToken = "sb-SECRET-token-4f2a9c"
let previewSecret = "sb-PREVIEW-token-77e1b0"

/// A started fake API serving `stories`, stopped when the value goes away.
final class RunningFake: @unchecked Sendable {
    let api: FakeStoryblokAPI
    let baseURL: URL

    init(_ stories: [Story]) throws {
        api = FakeStoryblokAPI(stories: stories, publicToken: secretToken, previewToken: previewSecret)
        baseURL = try api.start()
    }

    deinit {
        api.stop()
    }

    /// A source for this fake, retrying quickly so that fault tests stay short.
    func source(
        token: String = secretToken, version: StoryblokConfiguration.Version = .published, language: String? = nil,
        listsAllStories: Bool = false, timeout: Duration = .seconds(5), attempts: Int = 3
    ) -> StoryblokSource {
        StoryblokSource(configuration: StoryblokConfiguration(
            token: token, baseURL: baseURL, version: version, language: language, listsAllStories: listsAllStories,
            limits: NetworkLimits(headersTimeout: timeout, deadline: NetworkLimits.api.deadline, maximumBodySize: NetworkLimits.api.maximumBodySize), retry: .init(attempts: attempts, initialDelay: .milliseconds(10), maximumDelay: .seconds(2))))
    }

    /// The requests to `stories` (lists and single stories).
    var storyRequests: [RecordedRequest] { api.requests(to: "stories") }
}
