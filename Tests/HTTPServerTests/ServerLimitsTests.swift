import Foundation
import Testing
import TestSupport
@testable import HTTPServer

extension HTTPServerTests {
    /// Clients that misbehave on purpose, against a server with a short idle timeout and a small
    /// connection limit so that the tests stay quick.
    @Suite("Server limits: idle timeout, connection limit and allowed hosts")
    struct ServerLimitsTests {
        private static let limits = ServerLimits(idleTimeout: .seconds(1), connectionLimit: 8)

        private func withLimitedServer(_ limits: ServerLimits = limits, _ body: (HTTPServer, Int) async throws -> Void) async throws {
            let server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits) { _ in HTTPResponse(text: "hello") }
            let port = try server.start()
            defer { server.stop() }
            try await body(server, port)
        }

        /// Sends a whole request with `host` as the `Host` header and reads the response.
        private func get(_ port: Int, host: String? = "127.0.0.1", version: String = "HTTP/1.1") async throws -> LoopbackConnection.Response? {
            let connection = try LoopbackConnection(port: port)
            connection.send("GET / \(version)\r\n" + (host.map { "Host: \($0)\r\n" } ?? "") + "Connection: close\r\n\r\n")
            await connection.read(timeout: 5) { _ in false }
            return connection.response()
        }

        @Test("a request half sent is closed after the idle timeout")
        func halfSentRequest() async throws {
            try await withLimitedServer { _, port in
                let connection = try LoopbackConnection(port: port)
                connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                await connection.read(timeout: 10) { _ in false }
                #expect(connection.closed)
                #expect(connection.text.isEmpty)
            }
        }

        @Test("a handler or a stream that is slower than the idle timeout is not idle: it still answers")
        func slowAnswers() async throws {
            let server = HTTPServer(host: "127.0.0.1", port: 0, limits: Self.limits) { request in
                if request.path == "/stream" {
                    let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
                    Task {
                        try? await Task.sleep(for: .milliseconds(2500))
                        continuation.yield(Array("late".utf8))
                        continuation.finish()
                    }
                    return HTTPResponse(body: .stream(stream, length: nil))
                }
                try? await Task.sleep(for: .milliseconds(2500))
                return HTTPResponse(text: "slow")
            }
            let port = try server.start()
            defer { server.stop() }
            let slow = try LoopbackConnection(port: port)
            slow.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let stream = try LoopbackConnection(port: port)
            stream.send("GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await slow.read(timeout: 10) { $0.hasSuffix("slow") })
            #expect(await stream.read(timeout: 10) { $0.contains("late") })
        }

        @Test("past the connection limit a request gets a 503 that says why; once the open ones close it is answered")
        func connectionLimit() async throws {
            // An idle timeout far longer than the test, so that the connections stay open until
            // the test closes them however long the other tests keep it waiting for a thread to
            // resume on (the idle timeout has a test of its own, above).
            try await withLimitedServer(ServerLimits(idleTimeout: .seconds(300), connectionLimit: 8)) { server, port in
                var open: [LoopbackConnection] = []
                for _ in 0..<8 {
                    let connection = try LoopbackConnection(port: port)
                    connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    open.append(connection)
                }
                for _ in 0..<500 where server.openConnections < 8 { try await Task.sleep(for: .milliseconds(10)) }
                let refused = try #require(try await get(port))
                #expect(refused.status == 503)
                #expect(refused.text.contains("connections are open, more than the limit of 8; try again shortly"))

                // Many more than the limit and its margin: the server takes the margin's, the
                // rest wait unanswered. Once all are closed, a request is answered again.
                var flood: [LoopbackConnection] = []
                for _ in 0..<24 {
                    if let connection = try? LoopbackConnection(port: port) { flood.append(connection) }
                }
                #expect(open.allSatisfy { $0.text.isEmpty })
                open.removeAll()  // each closes its socket
                flood.removeAll()
                var answered: LoopbackConnection.Response?
                for _ in 0..<150 where answered?.status != 200 {
                    try await Task.sleep(for: .milliseconds(200))
                    answered = try await get(port)
                }
                #expect(answered?.status == 200)
            }
        }

        @Test("the loopback names are answered, with or without a port and in any case", arguments: [
            "127.0.0.1", "127.0.0.1:8080", "localhost", "LOCALHOST:80", "[::1]", "[::1]:8080", "localhost.",
        ])
        func loopbackHosts(host: String) async throws {
            try await withLimitedServer { _, port in
                let response = try #require(try await get(port, host: host))
                #expect(response.status == 200 && response.text == "hello")
            }
        }

        @Test("any other Host gets 421 and a short message, so a rebound name cannot read the site", arguments: [
            "evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost:http", "[::2]",
        ])
        func foreignHosts(host: String) async throws {
            try await withLimitedServer { _, port in
                let response = try #require(try await get(port, host: host))
                #expect(response.status == 421)
                #expect(response.text.hasPrefix("421 Misdirected Request: this server answers only for localhost, 127.0.0.1, [::1]"))
            }
        }

        @Test("the address the server listens on is allowed too; an HTTP/1.0 request without Host is answered")
        func listeningHost() async throws {
            let server = HTTPServer(host: "127.0.0.1", port: 0, limits: ServerLimits(allowedHosts: HostAllowList(["preview.test"]))) { _ in
                HTTPResponse(text: "hello")
            }
            let port = try server.start()
            defer { server.stop() }
            #expect(server.limits.allowedHosts.hosts == ["preview.test", "127.0.0.1"])
            #expect(try await get(port, host: "preview.test:\(port)")?.status == 200)
            #expect(try await get(port, host: "127.0.0.1")?.status == 200)
            #expect(try await get(port, host: "localhost")?.status == 421)
            #expect(try await get(port, host: nil, version: "HTTP/1.0")?.status == 200)
        }

        @Test("listening on every address (0.0.0.0, ::) allows every host: the server was put on the network on purpose")
        func wildcardListening() {
            for wildcard in ["0.0.0.0", "::"] {
                let server = HTTPServer(host: wildcard, port: 0) { _ in HTTPResponse(text: "hello") }
                #expect(server.limits.allowedHosts.allows("192.168.1.20:8080"))
                #expect(server.limits.allowedHosts.description == "any host")
            }
            #expect(!HTTPServer(host: "127.0.0.1", port: 0) { _ in HTTPResponse(text: "hello") }.limits.allowedHosts.allows("192.168.1.20"))
        }
    }
}
