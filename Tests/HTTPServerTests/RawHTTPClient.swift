#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A plain TCP client for tests that must see a response's bytes as they arrive, or see the
/// connection close mid-body, which URLSession hides. Reads block a thread of their own, never
/// one of the few threads that run the server's handlers.
final class RawHTTPClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let socket: Int32
    /// Everything received so far.
    private(set) var received: [UInt8] = []
    /// Whether the server closed the connection.
    private(set) var closed = false

    init(host: String = "127.0.0.1", port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
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
    }

    deinit {
        close(socket)
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `condition` holds for the text received, the connection closes, or
    /// `timeout` passes. Returns whether the condition holds.
    @discardableResult
    func read(timeout: Double = 5, until condition: @escaping @Sendable (String) -> Bool) async -> Bool {
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
            if count <= 0 { closed = true } else { received += chunk[..<count] }
        }
        return condition(text)
    }

    var text: String { String(decoding: received, as: UTF8.self) }
}
