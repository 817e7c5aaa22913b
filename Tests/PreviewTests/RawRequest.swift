#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An HTTP/1.1 exchange over a plain socket, so a request target reaches the server byte for byte
/// (URLSession would normalise `..` and escapes). All blocking I/O runs on a thread of its own,
/// never on the cooperative pool that runs the server's handlers.
final class RawRequest: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A parsed response: status, headers (names lowercased) and body.
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let socket: Int32
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var isClosed = false

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(socket)
            throw Failure(description: "connect to port \(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(socket)
    }

    /// `method target` with `Connection: close`, read to the end; a whole response.
    static func send(_ method: String, _ target: String, port: Int, timeout: Double = 10) async throws -> Response {
        let connection = try RawRequest(port: port)
        connection.write("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        await connection.read(timeout: timeout) { _ in false }
        guard let response = connection.parsed(headOnly: method == "HEAD") else {
            throw Failure(description: "\(method) \(target): no complete response in \(connection.text.prefix(200))")
        }
        return response
    }

    func write(_ text: String) {
        let data = Array(text.utf8)
        _ = data.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything received so far, as text.
    var text: String {
        lock.withLock { String(decoding: bytes, as: UTF8.self) }
    }

    /// Reads until `condition` holds for the text received, the server closes, or `timeout`
    /// passes; returns whether the condition holds.
    @discardableResult
    func read(timeout: Double = 5, until condition: @escaping @Sendable (String) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.readBlocking(timeout: timeout, until: condition)) }.start()
        }
    }

    private func readBlocking(timeout: Double, until condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(text), !lock.withLock({ isClosed }) {
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

    /// The response in what was received (a `Content-Length` or closed body; chunking not handled).
    private func parsed(headOnly: Bool) -> Response? {
        let received = lock.withLock { bytes }
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0...max(0, received.count - 4)).first(where: { Array(received[$0..<min($0 + 4, received.count)]) == separator }) else {
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
