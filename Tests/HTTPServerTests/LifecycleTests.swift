import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPServer

extension HTTPServerTests {
    @Suite("Starting and stopping")
    struct LifecycleTests {
        @Test("port 0 picks a free port; after stop nothing listens, and it starts again")
        func restart() async throws {
            let server = HTTPServer(host: "127.0.0.1", port: 0) { _ in HTTPResponse(text: "up") }
            let first = try server.start()
            #expect(first > 0)
            #expect(server.port == first)
            #expect(try server.start() == first)
            let (data, _) = try await makeSession().data(from: url(first, "/"))
            #expect(String(decoding: data, as: UTF8.self) == "up")
            server.stop()
            #expect(server.port == nil)
            #expect(throws: LoopbackConnection.Failure.self) { try LoopbackConnection(port: first) }
            let second = try server.start()
            let (again, _) = try await makeSession().data(from: url(second, "/"))
            #expect(String(decoding: again, as: UTF8.self) == "up")
            server.stop()
        }

        @Test("libmicrohttpd is opened from its file when a server starts; a file that cannot be opened is an error that names it and the package to install")
        func libraryOpened() throws {
            #expect(throws: Never.self) { try LibMicroHTTPD.shared.get() }
            let missing = LibMicroHTTPD.open("libstorysite-missing.so.0")
            guard case .failure(let error) = missing, case .unavailable(let reason) = error else {
                Issue.record("a missing library opened: \(missing)")
                return
            }
            #expect(reason.contains("libstorysite-missing.so.0"))
            #expect(error.description.hasPrefix("cannot serve: ") && error.description.hasSuffix("install the package libmicrohttpd12"))
            guard case .failure(.unavailable(let lacking)) = LibMicroHTTPD.open("libc.so.6") else {
                Issue.record("a library without libmicrohttpd's functions opened")
                return
            }
            #expect(lacking == "libc.so.6 has no MHD_start_daemon")
        }

        @Test("stop ends waiting handlers and open streams at once")
        func stopWhileBusy() async throws {
            let (chunks, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
            defer { continuation.finish() }
            let server = HTTPServer(host: "127.0.0.1", port: 0) { request in
                if request.path == "/slow" {
                    try? await Task.sleep(for: .seconds(30))
                    return HTTPResponse(text: "late")
                }
                return HTTPResponse(body: .stream(chunks, length: nil))
            }
            let port = try server.start()
            let slow = try LoopbackConnection(port: port)
            slow.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let stream = try LoopbackConnection(port: port)
            stream.send("GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            continuation.yield(Array("tick".utf8))
            #expect(await stream.read { $0.contains("tick") })
            let start = ContinuousClock.now
            server.stop()
            #expect(ContinuousClock.now - start < .seconds(2))
            await slow.read { _ in false }
            await stream.read { _ in false }
            #expect(slow.closed && stream.closed)
        }

        @Test("it listens only on the address it was given")
        func bindsToHost() async throws {
            try await withServer({ _ in HTTPResponse(text: "up") }) { _, port in
                #expect(throws: Never.self) { try LoopbackConnection(host: "127.0.0.1", port: port) }
                #expect(throws: LoopbackConnection.Failure.self) { try LoopbackConnection(host: "127.0.0.2", port: port) }
            }
        }

        @Test("a host that is not an IP address, or a port in use, is a clear error")
        func startErrors() async throws {
            #expect(throws: HTTPServerError.invalidHost("example.com")) {
                try HTTPServer(host: "example.com") { _ in HTTPResponse(text: "") }.start()
            }
            try await withServer({ _ in HTTPResponse(text: "") }) { _, port in
                let second = HTTPServer(host: "127.0.0.1", port: port) { _ in HTTPResponse(text: "") }
                #expect {
                    try second.start()
                } throws: { error in
                    (error as? HTTPServerError)?.description.hasPrefix("cannot listen on 127.0.0.1:\(port): ") == true
                }
            }
        }
    }
}
