import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import HTTPServer

/// Starts a server on 127.0.0.1 with `handler` for the duration of `body`.
func withServer<Result>(
    limits: ServerLimits = ServerLimits(), _ handler: @escaping HTTPServer.Handler, _ body: (HTTPServer, Int) async throws -> Result
) async throws -> Result {
    let server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits, handler: handler)
    let port = try server.start()
    defer { server.stop() }
    return try await body(server, port)
}

/// A session that does not cache or reuse anything between tests.
func makeSession(timeout: Double = 10) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.httpMaximumConnectionsPerHost = 64
    return URLSession(configuration: configuration)
}

func url(_ port: Int, _ target: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(target)")!
}

/// A value tests set from handlers and read afterwards.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func update(_ change: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&stored)
    }
}
