import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPServer

extension HTTPServerTests {
    @Suite("Streaming responses")
    struct StreamingTests {
        @Test("chunks reach the client while the stream stays open, as Server-Sent Events need")
        func pushes() async throws {
            let (events, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
            try await withServer({ _ in
                HTTPResponse(headers: [HTTPHeader("Content-Type", "text/event-stream")], body: .stream(events, length: nil))
            }) { _, port in
                let client = try LoopbackConnection(port: port)
                client.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                continuation.yield(Array("data: first\n\n".utf8))
                #expect(await client.read { $0.contains("data: first") })
                #expect(client.text.contains("Transfer-Encoding: chunked"))
                try await Task.sleep(for: .milliseconds(100))
                continuation.yield(Array("data: second\n\n".utf8))
                #expect(await client.read { $0.contains("data: second") })
                #expect(!client.closed)
                continuation.finish()
                #expect(await client.read { $0.hasSuffix("0\r\n\r\n") })
            }
        }

        @Test("a stream with a length sends Content-Length and the whole body")
        func withLength() async throws {
            try await withServer({ _ in
                let chunks = AsyncThrowingStream<[UInt8], any Error> { continuation in
                    for part in ["abc", "def", "ghi"] { continuation.yield(Array(part.utf8)) }
                    continuation.finish()
                }
                return HTTPResponse(body: .stream(chunks, length: 9))
            }) { _, port in
                let (data, response) = try await makeSession().data(from: url(port, "/"))
                #expect(String(decoding: data, as: UTF8.self) == "abcdefghi")
                #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") == "9")
            }
        }

        @Test("a stream that fails closes the connection mid-body")
        func truncated() async throws {
            struct Cut: Error {}
            try await withServer({ _ in
                let chunks = AsyncThrowingStream<[UInt8], any Error> { continuation in
                    continuation.yield(Array("half of it".utf8))
                    continuation.finish(throwing: Cut())
                }
                return HTTPResponse(body: .stream(chunks, length: 100))
            }) { _, port in
                let client = try LoopbackConnection(port: port)
                client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                await client.read { _ in false }
                #expect(client.closed)
                #expect(client.text.contains("Content-Length: 100"))
                #expect(client.text.hasSuffix("half of it"))
                await #expect(throws: (any Error).self) { try await makeSession().data(from: url(port, "/")) }
            }
        }

        @Test("a client going away cancels its stream at the next write")
        func clientLeaves() async throws {
            let ended = Recorder(false)
            try await withServer({ _ in
                let (chunks, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
                let heartbeat = Task {
                    while !Task.isCancelled {
                        continuation.yield(Array(": tick\n".utf8))
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                }
                continuation.onTermination = { _ in
                    heartbeat.cancel()
                    ended.update { $0 = true }
                }
                return HTTPResponse(body: .stream(chunks, length: nil))
            }) { _, port in
                var client: LoopbackConnection? = try LoopbackConnection(port: port)
                client?.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await client?.read { $0.contains(": tick") } == true)
                client = nil
                for _ in 0..<100 where !ended.value { try await Task.sleep(for: .milliseconds(20)) }
                #expect(ended.value)
            }
        }
    }
}
