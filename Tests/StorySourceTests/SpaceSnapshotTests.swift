import FakeStoryblokAPI
import Foundation
import StoryModel
import Testing
@testable import StorySource

extension StorySourceTests {
    /// The space as serve keeps it between builds, against the fake API: what is held is never
    /// asked for again, and refreshes fetch only what changed.
    @Suite("Space snapshot")
    struct SpaceSnapshotTests {
        static func snapshot(_ fake: RunningFake) -> SpaceSnapshot {
            SpaceSnapshot(configuration: StoryblokConfiguration(
                token: secretToken, baseURL: fake.baseURL, retry: .init(attempts: 2, initialDelay: .milliseconds(10))))
        }

        @Test("stories and listings are asked for once; a reference the API does not know is remembered as missing")
        func asksOnce() async throws {
            let fake = try RunningFake(numberedStories(30))
            let space = Self.snapshot(fake)
            try await space.reset()
            let source = space.source(language: nil)
            let first = try await source.stories(for: [.uuid("uuid-1"), .slug("posts/post-2"), .uuid("nowhere")])
            #expect(first.count == 2)
            let listed = try await source.stories(matching: StoryQuery(folder: "posts/"))
            #expect(listed.count == 30)
            fake.api.resetLog()
            let again = try await source.stories(for: [.uuid("uuid-1"), .id(1002), .uuid("nowhere"), .slug("posts/post-7")])
            #expect(again.count == 3)
            #expect(try await source.stories(matching: StoryQuery(folder: "posts/")).count == 30)
            #expect(fake.api.requests.isEmpty, "\(fake.api.requests)")
        }

        @Test("refreshing ids replaces moved stories, takes out deleted ones, and reports ids nobody knows")
        func refreshByID() async throws {
            let fake = try RunningFake(numberedStories(5))
            let space = Self.snapshot(fake)
            try await space.reset()
            let source = space.source(language: nil)
            _ = try await source.stories(matching: StoryQuery(folder: "posts/"))
            fake.api.publish([apiStory("uuid-1", "archive/post-1", id: 1001)])
            fake.api.delete(uuid: "uuid-2")
            fake.api.resetLog()

            let changes = try await space.refresh(ids: [1001, 1002, 1003, 4242])
            #expect(changes.updated.map(\.fullSlug) == ["archive/post-1"])
            #expect(changes.removed.map(\.uuid) == ["uuid-2"])
            #expect(changes.unknownIDs == [4242])
            #expect(space.version == fake.api.spaceVersion)
            #expect(Set(fake.api.requests(to: "stories").map(\.endpoint)) == ["stories/1001", "stories/1002", "stories/1003", "stories/4242"])

            fake.api.resetLog()
            let listed = try await source.stories(matching: StoryQuery(folder: "posts/"))
            #expect(listed.map(\.uuid) == ["uuid-0", "uuid-3", "uuid-4"])
            #expect(try await source.stories(for: [.slug("archive/post-1"), .uuid("uuid-2"), .slug("posts/post-1")]).keys.map { "\($0)" } == ["archive/post-1"])
            #expect(fake.api.requests.isEmpty, "moved and deleted stories are answered from the snapshot: \(fake.api.requests)")
        }

        @Test("after a new cv, only the stories published since the newest held are fetched, and new ones join listings")
        func refreshChanged() async throws {
            var stories = numberedStories(3)
            stories[0] = apiStory("uuid-0", "posts/post-0", id: 1000, extra: ["published_at": .string("2025-01-01T10:00:00.000Z")])
            let fake = try RunningFake(stories)
            let space = Self.snapshot(fake)
            try await space.reset()
            let source = space.source(language: nil)
            _ = try await source.stories(matching: StoryQuery(folder: "posts/"))
            fake.api.publish([apiStory("uuid-9", "posts/post-9", id: 1009, extra: ["published_at": .string("2025-01-01T10:05:00.000Z")])])
            fake.api.resetLog()

            let changes = try await space.refreshChanged()
            #expect(changes.updated.map(\.uuid) == ["uuid-9"], "the newest held story comes back unchanged and does not count")
            #expect(fake.api.requests(to: "stories").map { $0.query["published_at_gt"] } == ["2025-01-01 10:00"])
            #expect(try await source.stories(matching: StoryQuery(folder: "posts/")).map(\.uuid) == ["uuid-0", "uuid-1", "uuid-2", "uuid-9"])
        }
    }
}
