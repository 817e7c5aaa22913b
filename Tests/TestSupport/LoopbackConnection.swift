#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A plain TCP connection to a server on 127.0.0.1, for tests that must send a request byte for
/// byte (URLSession normalises `..` and escapes) or read a stream as it arrives (Server-Sent
/// Events). Blocking reads run on a thread of their own, never on the cooperative pool that runs
/// the server's handlers.
public final class LoopbackConnection: @unchecked Sendable {
    /// A connection that could not be made, or a response that could not be read.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A response: status, headers (names lowercased) and body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let socket: Int32
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var isClosed = false

    /// Connects to `host`:`port` (a loopback address).
    public init(host: String = "127.0.0.1", port: Int) throws {
        // The socket is connected before it is stored: if connecting fails, it is closed here
        // once, and no deinit closes its number again (by then another thread may own it).
        socket = try Self.connectedSocket(host: host, port: port)
    }

    private static func connectedSocket(host: String, port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw Failure(description: "connect to \(host):\(port): \(reason)")
        }
        return socket
    }

    deinit {
        close(socket)
    }

    /// Sends `text` as it is.
    public func send(_ text: String) {
        let data = Array(text.utf8)
        _ = data.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything received so far.
    public var received: [UInt8] { lock.withLock { bytes } }

    /// Everything received so far, as text.
    public var text: String { String(decoding: received, as: UTF8.self) }

    /// Whether the server closed the connection.
    public var closed: Bool { lock.withLock { isClosed } }

    /// Reads until `condition` holds for the text received, the server closes, or `timeout`
    /// passes; returns whether the condition holds.
    @discardableResult
    public func read(timeout: Double = 5, until condition: @escaping @Sendable (String) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.readBlocking(timeout: timeout, until: condition)) }.start()
        }
    }

    private func readBlocking(timeout: Double, until condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(text), !closed {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { break }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            lock.withLock {
                if count <= 0 { isClosed = true } else { bytes += chunk[..<count] }
            }
        }
        return condition(text)
    }

    /// Sends `method target` with `Connection: close` and reads the whole response.
    public static func request(_ method: String, _ target: String, port: Int, timeout: Double = 10) async throws -> Response {
        let connection = try LoopbackConnection(port: port)
        connection.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        await connection.read(timeout: timeout) { _ in false }
        guard let response = connection.response(headOnly: method == "HEAD") else {
            throw Failure(description: "\(method) \(target): no complete response in \(connection.text.prefix(200))")
        }
        return response
    }

    /// The response in what was received (a `Content-Length` or closed body; chunking not handled).
    public func response(headOnly: Bool = false) -> Response? {
        let received = self.received
        let separator = Array("\r\n\r\n".utf8)
        guard received.count >= 4,
              let end = (0...(received.count - 4)).first(where: { received[$0..<$0 + 4].elementsEqual(separator) }) else {
            return nil
        }
        let head = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: headOnly ? [] : Array(received[(end + 4)...]))
    }
}
