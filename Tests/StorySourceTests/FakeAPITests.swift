import FakeStoryblokAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StoryModel
import Testing

extension StorySourceTests {
    /// The fake API itself, asked directly: the shapes it answers and the limits it enforces,
    /// without which the source's tests would prove little.
    @Suite("Fake Content Delivery API")
    struct FakeAPITests {
        private static let session: URLSession = {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = 64
            return URLSession(configuration: configuration)
        }()

        private func get(_ fake: RunningFake, _ target: String) async throws -> (status: Int, headers: HTTPURLResponse, json: JSONValue?) {
            let url = URL(string: fake.baseURL.absoluteString + "/" + target)!
            let (data, response) = try await Self.session.data(from: url)
            let http = response as! HTTPURLResponse
            return (http.statusCode, http, try? JSONValue(parsing: [UInt8](data)))
        }

        @Test("answers the CDN v2 shapes: space, single story, listings with Total and Per-Page, links")
        func shapes() async throws {
            let fake = try RunningFake(numberedStories(30))
            let space = try await get(fake, "spaces/me?token=\(secretToken)")
            #expect(space.json?["space"]?["version"]?.numberValue == Double(fake.api.spaceVersion))
            let single = try await get(fake, "stories/posts/post-3?token=\(secretToken)")
            #expect(single.json?["story"]?["uuid"]?.stringValue == "uuid-3")
            #expect(single.json?["cv"]?.numberValue == Double(fake.api.spaceVersion))
            #expect(single.json?["rels"]?.arrayValue == [])
            let byUUID = try await get(fake, "stories/uuid-4?find_by=uuid&token=\(secretToken)")
            #expect(byUUID.json?["story"]?["full_slug"]?.stringValue == "posts/post-4")
            let page = try await get(fake, "stories?per_page=10&page=3&token=\(secretToken)")
            #expect(page.json?["stories"]?.arrayValue?.count == 10)
            #expect(page.headers.value(forHTTPHeaderField: "Total") == "30")
            #expect(page.headers.value(forHTTPHeaderField: "Per-Page") == "10")
            let links = try await get(fake, "links?per_page=1000&token=\(secretToken)")
            let entries = links.json?["links"]?.objectValue
            #expect(entries?.count == 31)  // 30 stories and the posts folder
            #expect(entries?["folder-posts"]?["is_folder"]?.boolValue == true)
            #expect(try await get(fake, "stories/nowhere?token=\(secretToken)").status == 404)
        }

        @Test("refuses a missing or wrong token, and a public token for drafts")
        func tokens() async throws {
            let fake = try RunningFake(numberedStories(1))
            #expect(try await get(fake, "stories?by_uuids=uuid-0").status == 401)
            #expect(try await get(fake, "stories?by_uuids=uuid-0&token=nope").status == 401)
            #expect(try await get(fake, "stories?by_uuids=uuid-0&version=draft&token=\(secretToken)").status == 401)
            #expect(try await get(fake, "stories?by_uuids=uuid-0&version=draft&token=\(previewSecret)").status == 200)
        }

        @Test("answers 429 beyond the documented limits", arguments: [(25, 50), (50, 15), (75, 10), (100, 6)])
        func limits(perPage: Int, limit: Int) async throws {
            let fake = try RunningFake(numberedStories(1))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<(limit + 10) {
                    group.addTask { try await get(fake, "stories?per_page=\(perPage)&token=\(secretToken)").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == limit)
            #expect(statuses.filter { $0 == 429 }.count == 10)
            #expect(fake.api.requests.count == limit + 10)
        }
    }
}
