import FakeStoryblokAPI
import Foundation
import StoryModel
import Testing
@testable import StorySource

extension StorySourceTests {
    @Suite("Storyblok source: endpoints and batching")
    struct StoryblokEndpointTests {
        @Test("published builds read the cache version once and send it, with the token and version, on every request")
        func cacheVersion() async throws {
            let fake = try RunningFake(numberedStories(30))
            let source = fake.source()
            _ = try await source.stories(for: [.uuid("uuid-1")])
            _ = try await source.stories(for: [.uuid("uuid-2")])
            let requests = fake.api.requests
            #expect(requests.map(\.endpoint) == ["spaces/me", "stories", "stories"])
            for request in requests.dropFirst() {
                #expect(request.query["cv"] == String(fake.api.spaceVersion))
                #expect(request.query["version"] == "published")
                #expect(request.query["token"] == secretToken)
            }
        }

        @Test("UUID references are fetched in by_uuids batches of 25, each story once")
        func uuidBatches() async throws {
            let fake = try RunningFake(numberedStories(80))
            let source = fake.source()
            let references = (0..<60).map { StoryReference.uuid("uuid-\($0)") } + [.uuid("uuid-3")]
            let found = try await source.stories(for: references)
            #expect(found.count == 60)
            #expect(found[.uuid("uuid-42")]?.fullSlug == "posts/post-42")
            let requests = fake.storyRequests
            #expect(requests.count == 3)
            #expect(requests.allSatisfy { $0.query["per_page"] == "25" && $0.query["page"] == "1" })
            #expect(requests.map { $0.list("by_uuids").count }.sorted() == [10, 25, 25])
        }

        @Test("slug references use by_slugs, find start pages, and skip stories a UUID fetch already brought")
        func slugBatches() async throws {
            let fake = try RunningFake([apiStory("u-home", "home"), apiStory("u-blog", "blog/"), apiStory("u-post", "blog/post")])
            let source = fake.source()
            let found = try await source.stories(for: [.uuid("u-post"), .slug("blog/post"), .slug("blog"), .slug("/home")])
            #expect(found[.slug("blog")]?.uuid == "u-blog")
            #expect(found[.slug("/home")]?.uuid == "u-home")
            #expect(found[.slug("blog/post")]?.uuid == "u-post")
            let requests = fake.storyRequests
            #expect(requests.count == 2)
            #expect(requests[0].list("by_uuids") == ["u-post"])
            #expect(Set(requests[1].list("by_slugs")) == ["blog", "blog/", "home", "home/"])
        }

        @Test("ids and list-unsafe UUIDs and slugs use single-story requests; unknown references are absent")
        func singles() async throws {
            let fake = try RunningFake([apiStory("u-a", "a", id: 7), apiStory("odd,uuid", "b"), apiStory("u-c", "c,d")])
            let source = fake.source()
            let found = try await source.stories(for: [.id(7), .uuid("odd,uuid"), .slug("c,d"), .id(99), .uuid("u-missing"), .slug("nowhere")])
            #expect(found.keys.sorted() == [.uuid("odd,uuid"), .slug("c,d"), .id(7)])
            #expect(found[.id(7)]?.uuid == "u-a")
            let endpoints = fake.storyRequests.map(\.endpoint).sorted()
            #expect(endpoints == ["stories", "stories", "stories/7", "stories/99", "stories/c,d", "stories/odd,uuid"])
            #expect(fake.storyRequests.first { $0.endpoint == "stories/odd,uuid" }?.query["find_by"] == "uuid")
        }

        @Test("draft builds skip the cache version and send version=draft and the language")
        func draft() async throws {
            let fake = try RunningFake(numberedStories(3))
            let source = fake.source(token: previewSecret, version: .draft, language: "de")
            let found = try await source.stories(for: [.uuid("uuid-1")])
            #expect(found.count == 1)
            let requests = fake.api.requests
            #expect(requests.map(\.endpoint) == ["stories"])
            #expect(requests[0].query["version"] == "draft")
            #expect(requests[0].query["language"] == "de")
            #expect(requests[0].query["cv"] == nil)
        }

        @Test("stories resolved in a response's rels are kept and never fetched")
        func relations() async throws {
            let fake = try RunningFake(numberedStories(5))
            fake.api.relate("uuid-0", to: ["uuid-3", "uuid-4"])
            let source = fake.source()
            _ = try await source.stories(for: [.uuid("uuid-0")])
            let found = try await source.stories(for: [.uuid("uuid-3"), .slug("posts/post-4")])
            #expect(found.count == 2)
            #expect(fake.storyRequests.count == 1)
        }

        @Test("a redirect to a newer cache version is followed")
        func redirect() async throws {
            let fake = try RunningFake(numberedStories(5))
            let source = fake.source()
            _ = try await source.stories(for: [.uuid("uuid-0")])
            fake.api.spaceVersion += 1
            let found = try await source.stories(for: [.uuid("uuid-1")])
            #expect(found.count == 1)
            #expect(fake.storyRequests.map(\.status) == [200, 301, 200])
        }

        @Test("listing pages past the first when Total says there are more")
        func paging() async throws {
            // `x` and `x/` are both asked for each slug reference, so 13 pairs answer 26 stories.
            let stories = (0..<13).flatMap { [apiStory("u-\($0)", "s\($0)"), apiStory("u-\($0)-start", "s\($0)/")] }
            let fake = try RunningFake(stories)
            let source = fake.source()
            _ = try await source.stories(for: (0..<13).map { .slug("s\($0)") })
            #expect(fake.storyRequests.map { $0.query["page"] }.sorted { ($0 ?? "") < ($1 ?? "") } == ["1", "2"])
            let found = try await source.stories(for: (0..<13).map { .uuid("u-\($0)-start") })
            #expect(found.count == 13)
            #expect(fake.storyRequests.count == 2)
        }

        @Test("a folder query uses starts_with 100 per request, pages past the first, and later lookups need no request")
        func folderQuery() async throws {
            let stories = numberedStories(230) + [apiStory("u-start", "posts/"), apiStory("u-other", "other/x")]
            let fake = try RunningFake(stories)
            let source = fake.source()
            let found = try await source.stories(matching: StoryQuery(folder: "posts/"))
            #expect(found.count == 231)
            #expect(found.map(\.fullSlug) == found.map(\.fullSlug).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(!found.contains { $0.uuid == "u-other" })
            let requests = fake.storyRequests
            #expect(requests.count == 3)
            #expect(requests.allSatisfy { $0.query["starts_with"] == "posts/" && $0.query["per_page"] == "100" })
            #expect(requests.compactMap { $0.query["page"] }.sorted() == ["1", "2", "3"])
            fake.api.resetLog()
            _ = try await source.stories(for: [.uuid("uuid-7"), .slug("posts/post-8")])
            #expect(fake.api.requests.isEmpty)
        }

        @Test("a tag query sends with_tag, and a query of the whole space no starts_with")
        func tagQuery() async throws {
            var tagged = apiStory("u-tagged", "news/tagged").raw
            tagged["tag_list"] = .array([.string("hot")])
            let fake = try RunningFake([try Story(json: tagged), apiStory("u-plain", "news/plain")])
            let found = try await fake.source().stories(matching: StoryQuery(folder: "", tag: "hot"))
            #expect(found.map(\.uuid) == ["u-tagged"])
            #expect(fake.storyRequests.map { $0.query["with_tag"] } == ["hot"])
            #expect(fake.storyRequests.allSatisfy { $0.query["starts_with"] == nil })
        }

        @Test("allStories is nil unless asked for; then links name every story and only unseen ones are fetched")
        func allStories() async throws {
            let stories = numberedStories(40) + [apiStory("u-start", "posts/")]
            let fake = try RunningFake(stories)
            #expect(try await fake.source().allStories() == nil)
            let source = fake.source(listsAllStories: true)
            _ = try await source.stories(for: (0..<30).map { .uuid("uuid-\($0)") })
            fake.api.resetLog()
            let all = try #require(try await source.allStories())
            #expect(all.count == 41)
            #expect(all.map(\.fullSlug) == all.map(\.fullSlug).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(fake.api.requests.map(\.endpoint) == ["links", "stories"])
            #expect(fake.api.requests[1].list("by_uuids").count == 11)
        }

        @Test("the limiter keeps a large batch within the rate limits: no 429")
        func rateLimits() async throws {
            let fake = try RunningFake(numberedStories(1600))
            let source = fake.source()
            let start = ContinuousClock.now
            let found = try await source.stories(for: (0..<1600).map { .uuid("uuid-\($0)") })
            #expect(found.count == 1600)
            #expect(fake.api.requests.allSatisfy { $0.status == 200 })
            #expect(fake.api.requests.count == 65)
            // 65 requests at 50 a second need more than one window.
            #expect(ContinuousClock.now - start > .seconds(1))
        }
    }
}
