import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPServer

extension HTTPServerTests {
    @Suite("Requests and responses")
    struct RequestResponseTests {
        @Test("a GET sees the method, raw path, decoded query and headers, and gets status, headers and body")
        func get() async throws {
            let seen = Recorder<HTTPRequest?>(nil)
            try await withServer({ request in
                seen.update { $0 = request }
                return HTTPResponse(status: 201, headers: [HTTPHeader("X-Answer", "42")], text: "hello")
            }) { _, port in
                var request = URLRequest(url: url(port, "/a%20b/c?by_slugs=home,blog%2F&q=x+y&flag"))
                request.setValue("test-agent", forHTTPHeaderField: "X-Client")
                let (data, response) = try await makeSession().data(for: request)
                let http = try #require(response as? HTTPURLResponse)
                #expect(http.statusCode == 201)
                #expect(http.value(forHTTPHeaderField: "X-Answer") == "42")
                #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
                #expect(String(decoding: data, as: UTF8.self) == "hello")
            }
            let request = try #require(seen.value)
            #expect(request.method == "GET")
            #expect(request.path == "/a%20b/c")
            #expect(request.query == "by_slugs=home,blog%2F&q=x+y&flag")
            #expect(request.queryItems == [
                .init(name: "by_slugs", value: "home,blog/"), .init(name: "q", value: "x y"), .init(name: "flag", value: ""),
            ])
            #expect(request.queryValue("q") == "x y")
            #expect(request.header("x-client") == "test-agent")
        }

        @Test("a HEAD gets the headers and the length, but no body")
        func head() async throws {
            try await withServer({ _ in HTTPResponse(text: "twelve bytes") }) { _, port in
                let client = try LoopbackConnection(port: port)
                client.send("HEAD /page HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                await client.read { _ in false }
                #expect(client.closed)
                #expect(client.text.hasPrefix("HTTP/1.1 200"))
                #expect(client.text.contains("Content-Length: 12\r\n"))
                #expect(client.text.hasSuffix("\r\n\r\n"))
            }
        }

        /// A JSON `POST` of `body` to `url`.
        private static func post(_ body: Data, to url: URL) -> URLRequest {
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            return request
        }

        @Test("a POST body reaches the handler whole")
        func postBody() async throws {
            let body = Array("{\"story\": {\"name\": \"Über\"}}".utf8) + (0..<200_000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            let seen = Recorder<HTTPRequest?>(nil)
            try await withServer({ request in
                seen.update { $0 = request }
                return HTTPResponse(text: "\(request.body.count)")
            }) { _, port in
                let (data, _) = try await makeSession().data(for: Self.post(Data(body), to: url(port, "/echo")))
                #expect(String(decoding: data, as: UTF8.self) == "\(body.count)")
            }
            #expect(seen.value?.method == "POST")
            #expect(seen.value?.body == body)
        }

        @Test("a body over 8 MiB gets 413 and never reaches the handler")
        func bodyTooLarge() async throws {
            let called = Recorder(false)
            try await withServer({ _ in
                called.update { $0 = true }
                return HTTPResponse(text: "ok")
            }) { _, port in
                let (_, response) = try await makeSession().data(for: Self.post(Data(count: (8 << 20) + 1), to: url(port, "/echo")))
                #expect((response as? HTTPURLResponse)?.statusCode == 413)
            }
            #expect(called.value == false)
        }

        @Test("a large body arrives intact")
        func largeBody() async throws {
            let body = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
            try await withServer({ _ in HTTPResponse(bytes: body) }) { _, port in
                let (data, _) = try await makeSession().data(from: url(port, "/big"))
                #expect(data.count == body.count)
                #expect(Array(data) == body)
            }
        }

        @Test("concurrent slow requests are answered in parallel")
        func concurrent() async throws {
            // Counts handlers running at once: proof of parallelism that does not depend on timing.
            let inFlight = Locked((now: 0, most: 0))
            try await withServer({ request in
                inFlight.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                try? await Task.sleep(for: .milliseconds(200))
                inFlight.withLock { $0.now -= 1 }
                return HTTPResponse(text: request.path)
            }) { _, port in
                let session = makeSession()
                let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                    for index in 0..<48 {
                        group.addTask {
                            let (data, _) = try await session.data(from: url(port, "/\(index)"))
                            return (index, String(decoding: data, as: UTF8.self))
                        }
                    }
                    return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
                }
                #expect(bodies.count == 48)
                #expect(bodies.allSatisfy { $0.value == "/\($0.key)" })
                #expect(inFlight.withLock { $0.most } > 1)
            }
        }

        @Test("a dropped connection gets no answer")
        func drop() async throws {
            try await withServer({ _ in .dropConnection }) { _, port in
                let client = try LoopbackConnection(port: port)
                client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                await client.read { _ in false }
                #expect(client.closed)
                #expect(client.received.isEmpty)
                await #expect(throws: (any Error).self) { try await makeSession().data(from: url(port, "/")) }
            }
        }

        @Test("a keep-alive connection serves several requests")
        func keepAlive() async throws {
            // The server's idle timeout (10 s by default) must not end the connection between the
            // two requests while the other tests keep this one waiting for a thread to resume on.
            let patient = ServerLimits(idleTimeout: .seconds(300))
            try await withServer(limits: patient, { request in HTTPResponse(text: "[\(request.path)]") }) { _, port in
                let client = try LoopbackConnection(port: port)
                client.send("GET /one HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await client.read(timeout: 60) { $0.contains("[/one]") })
                client.send("GET /two HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await client.read(timeout: 60) { $0.contains("[/two]") })
                #expect(!client.closed)
            }
        }
    }
}
