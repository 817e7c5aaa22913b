import FakeStoryblokAPI
import Foundation
import StoryModel
import Testing
@testable import StorySource

extension StorySourceTests {
    @Suite("Storyblok source: faults, retries and the token")
    struct StoryblokFaultTests {
        @Test("500s, slow answers, truncated bodies and dropped connections are retried", arguments: [
            FakeFault.serverError, .slow(.seconds(3)), .truncatedBody, .droppedConnection,
        ])
        func retried(fault: FakeFault) async throws {
            let fake = try RunningFake(numberedStories(30))
            let source = fake.source(timeout: .seconds(1))
            fake.api.inject(fault, times: 2, endpointPrefix: "stories")
            let found = try await source.stories(for: (0..<30).map { .uuid("uuid-\($0)") })
            #expect(found.count == 30)
            let requests = fake.storyRequests
            #expect(requests.filter { $0.fault == fault }.count == 2)
            #expect(requests.filter { $0.fault == nil && $0.status == 200 }.count == 2)
        }

        @Test("a 429 waits as long as Retry-After asks")
        func retryAfter() async throws {
            let fake = try RunningFake(numberedStories(3))
            let source = fake.source()
            fake.api.inject(.tooManyRequests(retryAfter: 1), endpointPrefix: "stories")
            let start = ContinuousClock.now
            let found = try await source.stories(for: [.uuid("uuid-0")])
            #expect(found.count == 1)
            #expect(ContinuousClock.now - start >= .seconds(1))
            #expect(fake.storyRequests.map(\.status) == [429, 200])
        }

        @Test("after the last attempt the error names the request, with the token redacted, and what happened")
        func givesUp() async throws {
            let fake = try RunningFake(numberedStories(3))
            let source = fake.source(attempts: 3)
            fake.api.inject(.serverError, times: 3, endpointPrefix: "stories")
            let error = try await #require(throws: StoryblokError.self) {
                try await source.stories(for: [.uuid("uuid-1")])
            }
            #expect(error.isUnreachable)
            #expect(error.problem == .gaveUp(attempts: 3, lastFailure: "HTTP 500"))
            #expect(error.request.hasPrefix("GET \(fake.baseURL.absoluteString)/stories?by_uuids=uuid-1&per_page=25&page=1"))
            #expect(error.description.contains("token=***"))
            #expect(error.description.hasSuffix(": failed 3 times, last: HTTP 500"))
            #expect(!error.description.contains(secretToken))
            #expect(fake.storyRequests.count == 3)
        }

        @Test("a rejected token fails at once, naming the likely cause", arguments: [
            (secretToken, StoryblokConfiguration.Version.draft), ("wrong-token", .published),
        ])
        func rejected(token: String, version: StoryblokConfiguration.Version) async throws {
            let fake = try RunningFake(numberedStories(3))
            let source = fake.source(token: token, version: version)
            let error = try await #require(throws: StoryblokError.self) {
                try await source.stories(for: [.uuid("uuid-1")])
            }
            #expect(error.problem == .tokenRejected(status: 401))
            #expect(!error.isUnreachable)
            #expect(error.description.contains("the access token was rejected (is it a preview token for draft builds?)"))
            #expect(!error.description.contains(token))
            #expect(fake.api.requests.count == 1)
        }

        @Test("an API that cannot be reached is reported as unreachable")
        func unreachable() async throws {
            let fake = try RunningFake([])
            fake.api.stop()
            let error = try await #require(throws: StoryblokError.self) {
                try await fake.source(attempts: 2).stories(for: [.slug("home")])
            }
            #expect(error.isUnreachable)
            #expect(error.description.contains("/spaces/me?token=***"))
            #expect(error.description.hasSuffix("last: could not connect to the server"))
        }

        @Test("the token appears in no description, dump or error of the source")
        func redaction() async throws {
            let fake = try RunningFake(numberedStories(3))
            let configuration = StoryblokConfiguration(token: secretToken, baseURL: fake.baseURL)
            var dumped = ""
            dump(configuration, to: &dumped)
            let source = StoryblokSource(configuration: configuration)
            for shown in [configuration.description, String(reflecting: configuration), dumped, source.description] {
                #expect(!shown.contains(secretToken))
            }
            #expect(source.description == "the Storyblok space at 127.0.0.1:\(fake.baseURL.port!)/v2/cdn")

            fake.api.inject(.droppedConnection, times: 5)
            let error = try await #require(throws: StoryblokError.self) {
                try await fake.source(attempts: 2).stories(for: [.uuid("uuid-1")])
            }
            for shown in [error.description, String(reflecting: error), error.localizedDescription] {
                #expect(!shown.contains(secretToken))
            }
            #expect(TokenRedaction.redact("a?token=\(secretToken)&b", token: secretToken) == "a?token=***&b")
            #expect(TokenRedaction.redact("x=a%2Bb", token: "a+b") == "x=***")
        }
    }
}
