import Foundation
import NetworkLimits
import StoryModel
import Testing
import TestSupport
@testable import StorySource

extension StorySourceTests {
    /// Each test points the source at a server on 127.0.0.1 that misbehaves, with limits short
    /// enough to keep the test quick; without the limits each of these ran for minutes or grew
    /// memory past gigabytes.
    @Suite("Storyblok source: deadlines, response size and Total under a misbehaving server")
    struct StoryblokLimitsTests {
        /// A headers timeout longer than the deadline where the headers come at once: the tests
        /// share two cores with others, and a retry never fits.
        private static let limits = NetworkLimits(headersTimeout: .seconds(5), deadline: .seconds(2), maximumBodySize: 1 << 20)
        /// For the tests of what is asked, not of when it fails: a server that answers at once, and
        /// time to spare while the other tests keep both cores busy.
        private static let roomyLimits = NetworkLimits(headersTimeout: .seconds(30), deadline: .seconds(30), maximumBodySize: 1 << 20)
        private static let json = "Content-Type: application/json"

        private func source(
            _ server: MisbehavingServer, attempts: Int = 3, listsAllStories: Bool = false, limits: NetworkLimits = limits
        ) -> StoryblokSource {
            StoryblokSource(configuration: StoryblokConfiguration(
                token: secretToken, baseURL: URL(string: "http://127.0.0.1:\(server.port)/v2/cdn")!, version: .draft,
                listsAllStories: listsAllStories, limits: limits,
                retry: .init(attempts: attempts, initialDelay: .milliseconds(10), maximumDelay: .seconds(1))))
        }

        /// The error of a request to `server`.
        private func failure(_ server: MisbehavingServer, attempts: Int = 3, limits: NetworkLimits = limits) async throws -> StoryblokError {
            try await #require(throws: StoryblokError.self) {
                try await source(server, attempts: attempts, limits: limits).stories(for: [.uuid("uuid-1")])
            }
        }

        @Test("a body dripped one byte at a time fails at the deadline, retries included")
        func drip() async throws {
            let server = try MisbehavingServer(behaviour: MisbehavingServer.drip(head: MisbehavingServer.head([Self.json]), interval: 0.2))
            defer { server.stop() }
            let error = try await failure(server, attempts: 5)
            #expect(error.isUnreachable)
            // The drip would take 100 s; the deadline leaves no time for a second attempt.
            #expect(error.description.contains("the response was not complete within the deadline of 2 s"))
            #expect(!error.description.contains(secretToken))
            #expect(server.connections == 1)
        }

        @Test("a server that accepts and never answers fails after the headers timeout of each attempt")
        func silent() async throws {
            let server = try MisbehavingServer(behaviour: MisbehavingServer.silent())
            defer { server.stop() }
            let limits = NetworkLimits(headersTimeout: .milliseconds(500), deadline: .seconds(20), maximumBodySize: 1 << 20)
            let error = try await failure(server, attempts: 2, limits: limits)
            // The server would hold each attempt for 120 s.
            #expect(error.problem == .gaveUp(attempts: 2, lastFailure: "no response within 0.5 s"))
            #expect(server.connections == 2)
        }

        @Test("an endless body stops at the size limit, and is not retried")
        func endlessBody() async throws {
            let server = try MisbehavingServer(behaviour: MisbehavingServer.endlessBody(head: MisbehavingServer.head([Self.json])))
            defer { server.stop() }
            let error = try await failure(server)
            #expect(error.problem == .failed("the response is larger than the limit of 1 MiB (storysite.json: source.storyblok.maxResponseMB)"))
            #expect(server.connections == 1)
            #expect(server.bytesSent < 16 << 20)  // what the client read, plus the sockets' buffers
        }

        @Test("a gzip bomb is counted as it decodes and stops at the size limit")
        func gzipBomb() async throws {
            // 60 KiB sent, 8 MiB decoded: only the decoded size is over the 1 MiB limit.
            let server = try MisbehavingServer(behaviour: MisbehavingServer.gzipBomb(decodedSize: 8 << 20))
            defer { server.stop() }
            let error = try await failure(server)
            #expect(error.problem == .failed("the response is larger than the limit of 1 MiB (storysite.json: source.storyblok.maxResponseMB)"))
            #expect(server.connections == 1)
        }

        /// Answers every listing with the same page, `story` repeated under its own UUID, and
        /// `Total: 2000000000`, whatever page was asked.
        private static func lyingTotal(entriesPerPage: Int, links: Bool = false) -> @Sendable (MisbehavingServer.Client) -> Void {
            { client in
                let entries = (0..<entriesPerPage).map { index in
                    #"{"uuid":"uuid-\#(index)","full_slug":"blog/post-\#(index)","name":"Post","is_folder":false,"content":{"component":"page","_uid":"b\#(index)"}}"#
                }
                let body = links
                    ? #"{"links":[\#(entries.joined(separator: ","))]}"#
                    : #"{"stories":[\#(entries.joined(separator: ","))]}"#
                client.send(MisbehavingServer.head([Self.json, "Total: 2000000000", "Content-Length: \(body.utf8.count)"]) + body)
            }
        }

        @Test("Total: 2000000000 on a listing by UUID asks no page past what the UUIDs can fill")
        func hugeTotalByUUID() async throws {
            let server = try MisbehavingServer(behaviour: Self.lyingTotal(entriesPerPage: 1))
            defer { server.stop() }
            let found = try await source(server, limits: Self.roomyLimits).stories(for: [.uuid("uuid-0")])
            #expect(found[.uuid("uuid-0")]?.fullSlug == "blog/post-0")
            #expect(server.connections == 1)
        }

        @Test("Total: 2000000000 on a folder listing whose pages repeat stops after one round without new stories")
        func hugeTotalFolder() async throws {
            let server = try MisbehavingServer(behaviour: Self.lyingTotal(entriesPerPage: StoryblokSource.queryPageSize))
            defer { server.stop() }
            let stories = try await source(server, limits: Self.roomyLimits).stories(matching: StoryQuery(folder: "blog/"))
            #expect(stories.count == StoryblokSource.queryPageSize)
            #expect(server.connections == 1 + ListingPages.round)
        }

        @Test("Total: 2000000000 on the links listing stops at its first short page")
        func hugeTotalLinks() async throws {
            let server = try MisbehavingServer(behaviour: Self.lyingTotal(entriesPerPage: 3, links: true))
            defer { server.stop() }
            let stories = try #require(try await source(server, listsAllStories: true, limits: Self.roomyLimits).allStories())
            #expect(stories.map(\.fullSlug) == ["blog/post-0", "blog/post-1", "blog/post-2"])
            #expect(server.requestHeads.filter { $0.hasPrefix("GET /v2/cdn/links?") }.count == 1)
        }
    }
}
