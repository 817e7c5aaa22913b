import Foundation
import LinkCheck
import NetworkLimits
import Testing
import TestSupport

extension LinkCheckTests {
    /// The default client against linked sites on 127.0.0.1 that misbehave, with limits short
    /// enough to keep the tests quick. Without the limits a drip stalled the check past 90 s and
    /// an endless body took 2 GB.
    @Suite("External link check: deadlines and no body under a misbehaving site")
    struct ExternalLinkLimitsTests {
        /// Generous where the headers come at once: the tests share two cores with others.
        private static let options = ExternalLinkCheck.Options(
            limits: NetworkLimits(headersTimeout: .seconds(5), deadline: .seconds(10), maximumBodySize: 0),
            retries: 2, retryDelay: .milliseconds(10))

        private func status(_ server: MisbehavingServer, options: ExternalLinkCheck.Options = options) async -> ExternalLinkStatus? {
            let url = URL(string: "http://127.0.0.1:\(server.port)/page")!
            return await ExternalLinkCheck(options: options).check([url])[url]
        }

        /// Refuses HEAD (405), so that the check asks with GET, and answers GET with `get`.
        private static func refusingHead(then get: @escaping @Sendable (MisbehavingServer.Client) -> Void) -> @Sendable (MisbehavingServer.Client) -> Void {
            { client in
                if client.requestHead.hasPrefix("HEAD ") {
                    client.send(MisbehavingServer.head(status: 405, ["Content-Length: 0"]))
                } else {
                    get(client)
                }
            }
        }

        @Test("a GET whose body drips is reachable as soon as its status is in")
        func drippingBody() async throws {
            let server = try MisbehavingServer(behaviour: Self.refusingHead(then: MisbehavingServer.drip(head: MisbehavingServer.head(), interval: 0.5)))
            defer { server.stop() }
            #expect(await status(server) == .reachable)
            #expect(server.requestHeads.map { $0.prefix(4) } == ["HEAD", "GET "])
        }

        @Test("a GET whose body does not end is reachable, and none of the body is read")
        func endlessBody() async throws {
            let server = try MisbehavingServer(behaviour: Self.refusingHead(then: MisbehavingServer.endlessBody(head: MisbehavingServer.head(status: 200))))
            defer { server.stop() }
            #expect(await status(server) == .reachable)
            #expect(server.bytesSent < 16 << 20)  // the sockets' buffers at most
        }

        @Test("a site that accepts and never answers is broken after the headers timeout of each attempt")
        func silent() async throws {
            let server = try MisbehavingServer(behaviour: MisbehavingServer.silent())
            defer { server.stop() }
            let patient = ExternalLinkCheck.Options(
                limits: NetworkLimits(headersTimeout: .milliseconds(500), deadline: .seconds(20), maximumBodySize: 0), retries: 2, retryDelay: .milliseconds(10))
            #expect(await status(server, options: patient) == .broken("no response within 0.5 s"))
            #expect(server.connections == 3)  // each would have waited 120 s
        }

        @Test("headers that drip are broken after the headers timeout, and no retry is made past the link's deadline")
        func drippingHeaders() async throws {
            let server = try MisbehavingServer { client in
                guard client.send("HTTP/1.1 200 OK\r\n") else { return }
                for _ in 0..<500 {
                    guard client.pause(0.2), client.send("X-Slow: 1\r\n") else { return }
                }
            }
            defer { server.stop() }
            let short = ExternalLinkCheck.Options(
                limits: NetworkLimits(headersTimeout: .seconds(1), deadline: .milliseconds(1500), maximumBodySize: 0), retries: 2, retryDelay: .milliseconds(10))
            #expect(await status(server, options: short) == .broken("no response within 1 s"))
            #expect(server.connections == 1)  // the deadline left no time for another attempt
        }
    }
}
