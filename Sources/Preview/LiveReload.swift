import Foundation
import HTTPServer

/// The live-reload hub: keeps the open Server-Sent Events streams of the preview's pages and
/// tells them when to reload or what went wrong.
///
/// Events: `hello` on connect (`{"build": n}`), then `error` (`{"build": n, "problems": [...]}`)
/// when the last rebuild failed, so a page opened during a failure shows the overlay at once;
/// `reload` (`{"build": n}`) after each successful rebuild; comment heartbeats in between, since
/// the server notices a departed client only when a write fails.
public final class LiveReload: @unchecked Sendable {
    /// The path pages listen on.
    public static let eventsPath = "/_storysite/events"

    private struct Payload: Encodable {
        var build: Int
        var problems: [PreviewProblem]?
    }

    private typealias Client = AsyncThrowingStream<[UInt8], any Error>.Continuation

    private let heartbeat: Duration
    private let lock = NSLock()
    private var clients: [Int: Client] = [:]
    private var nextClient = 0
    private var build = 0
    private var problems: [PreviewProblem] = []

    /// A hub sending a heartbeat comment to each client every `heartbeat`.
    public init(heartbeat: Duration = .seconds(15)) {
        self.heartbeat = heartbeat
    }

    /// How many pages are listening.
    public var clientCount: Int {
        lock.withLock { clients.count }
    }

    /// The number of the latest build that reloaded the pages: a page served now is that
    /// build's, as far as the files read after asking go.
    public var currentBuild: Int {
        lock.withLock { build }
    }

    /// The problems the overlay shows now; empty after a successful build.
    public var currentProblems: [PreviewProblem] {
        lock.withLock { problems }
    }

    /// A new client's event stream; with `opening` false (for HEAD), only its headers.
    public func eventsResponse(opening: Bool = true) -> HTTPResponse {
        guard opening else { return HTTPResponse(headers: Self.eventHeaders, bytes: []) }
        let (stream, client) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let greeting = lock.withLock { () -> String in
            let id = nextClient
            nextClient += 1
            clients[id] = client
            let interval = heartbeat
            let beat = Task {
                while (try? await Task.sleep(for: interval)) != nil {
                    if case .terminated = client.yield(Array(": heartbeat\n\n".utf8)) { return }
                }
            }
            client.onTermination = { [weak self] _ in
                beat.cancel()
                self?.lock.withLock { _ = self?.clients.removeValue(forKey: id) }
            }
            var text = "retry: 1000\n\n" + Self.event("hello", Payload(build: build))
            if !problems.isEmpty { text += Self.event("error", Payload(build: build, problems: problems)) }
            return text
        }
        client.yield(Array(greeting.utf8))
        return HTTPResponse(headers: Self.eventHeaders, body: .stream(stream, length: nil))
    }

    private static let eventHeaders = [
        HTTPHeader("Content-Type", "text/event-stream; charset=utf-8"),
        HTTPHeader("Cache-Control", "no-cache"),
    ]

    /// After a successful rebuild, whose files are in place: clears the problems and reloads
    /// every page.
    public func reload() {
        broadcast { build, problems in
            build += 1
            problems = []
            return Self.event("reload", Payload(build: build))
        }
    }

    /// After a failed rebuild: every page shows `problems` until a later ``reload()``.
    public func showProblems(_ newProblems: [PreviewProblem]) {
        broadcast { build, problems in
            problems = newProblems
            return Self.event("error", Payload(build: build, problems: newProblems))
        }
    }

    /// Ends every stream (when the server stops).
    public func disconnectAll() {
        let ended = lock.withLock { () -> [Client] in
            defer { clients = [:] }
            return Array(clients.values)
        }
        for client in ended { client.finish() }
    }

    private func broadcast(_ change: (inout Int, inout [PreviewProblem]) -> String) {
        let (text, targets) = lock.withLock { (change(&build, &problems), Array(clients.values)) }
        let bytes = Array(text.utf8)
        for client in targets { client.yield(bytes) }
    }

    private static func event(_ name: String, _ payload: Payload) -> String {
        let data = (try? JSONEncoder().encode(payload)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: \(name)\ndata: \(data)\n\n"
    }
}
