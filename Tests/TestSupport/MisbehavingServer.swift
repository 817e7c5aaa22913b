#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A TCP server on 127.0.0.1 (a free port) that misbehaves on purpose, for the tests of the
/// network limits: it drips, sends endless bodies or gzip bombs, or accepts and never answers.
/// Each connection runs `behaviour` on a thread of its own, after the request head was read.
/// Every loop is bounded in bytes and time and ends soon after ``stop()``, whatever the client
/// did. Call ``stop()`` when done: until then its threads keep it alive.
public final class MisbehavingServer: @unchecked Sendable {
    /// One accepted connection, as the behaviour sees it.
    public final class Client: @unchecked Sendable {
        /// The request line and headers (`GET /x HTTP/1.1\r\n…`), empty if none came within 5 s.
        public fileprivate(set) var requestHead = ""
        fileprivate let socket: Int32
        fileprivate unowned let server: MisbehavingServer

        fileprivate init(socket: Int32, server: MisbehavingServer) {
            self.socket = socket
            self.server = server
        }

        /// The request target (`/stories?…`).
        public var target: String {
            let line = requestHead.prefix { $0 != "\r" && $0 != "\n" }
            let parts = line.split(separator: " ")
            return parts.count > 1 ? String(parts[1]) : ""
        }

        /// Sends `bytes`; false once the peer closed or the server is stopping.
        @discardableResult
        public func send(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                guard !server.isStopped else { return false }
                let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < 0 {
                    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                    return false
                }
                offset += sent
                server.count(sent: sent)
            }
            return true
        }

        @discardableResult
        public func send(_ text: String) -> Bool {
            send(Array(text.utf8))
        }

        /// Waits `seconds` unless the server stops first; false when it stopped.
        @discardableResult
        public func pause(_ seconds: Double) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                guard !server.isStopped else { return false }
                usleep(20_000)
            }
            return !server.isStopped
        }

        /// Whether the peer has closed its side (a read returns end of file or fails).
        public var peerClosed: Bool {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0 else { return false }
            var byte: UInt8 = 0
            return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
        }

        fileprivate func readHead() {
            var bytes: [UInt8] = []
            let end = Date().addingTimeInterval(5)
            while Date() < end, !server.isStopped, bytes.count < 65536 {
                var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                bytes += chunk[..<count]
                if String(decoding: bytes, as: UTF8.self).contains("\r\n\r\n") { break }
            }
            requestHead = String(decoding: bytes, as: UTF8.self)
        }
    }

    public let port: Int
    private let listener: Int32
    private let behaviour: @Sendable (Client) -> Void
    private let lock = NSLock()
    private var stopped = false
    private var accepted = 0
    private var sent = 0
    private var heads: [String] = []

    /// Listens on 127.0.0.1 and runs `behaviour` for each connection.
    public init(behaviour: @escaping @Sendable (Client) -> Void) throws {
        self.behaviour = behaviour
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 128) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw LoopbackConnection.Failure(description: "cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    /// Connections accepted so far.
    public var connections: Int { lock.withLock { accepted } }

    /// Bytes sent so far, over every connection.
    public var bytesSent: Int { lock.withLock { sent } }

    /// The request heads received so far, in arrival order.
    public var requestHeads: [String] { lock.withLock { heads } }

    fileprivate var isStopped: Bool { lock.withLock { stopped } }

    fileprivate func count(sent bytes: Int) {
        lock.withLock { sent += bytes }
    }

    /// Stops accepting and ends every behaviour at its next send or pause (at most one more
    /// chunk goes out). It does not wait, so it never blocks the task that calls it.
    public func stop() {
        lock.withLock { stopped = true }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            lock.withLock { accepted += 1 }
            Thread { [self] in
                defer { close(client) }
                let connection = Client(socket: client, server: self)
                connection.readHead()
                lock.withLock { heads.append(connection.requestHead) }
                behaviour(connection)
            }.start()
        }
    }
}

extension MisbehavingServer {
    /// `HTTP/1.1 200 OK` with `headers` and `Connection: close`, ended by the blank line.
    public static func head(status: Int = 200, _ headers: [String] = []) -> String {
        (["HTTP/1.1 \(status) Whatever"] + headers + ["Connection: close", "", ""]).joined(separator: "\r\n")
    }

    /// Sends `head`, then one byte of `body` every `interval` seconds, for at most `bytes` bytes.
    public static func drip(head: String, interval: Double, bytes: Int = 500) -> @Sendable (Client) -> Void {
        { client in
            guard client.send(head) else { return }
            for _ in 0..<bytes {
                guard client.pause(interval), client.send(" ") else { return }
            }
        }
    }

    /// Sends `head`, then a body that does not end: 64 KiB chunks until the client closes,
    /// the server stops or `limit` bytes went out.
    public static func endlessBody(head: String, limit: Int = 4 << 30) -> @Sendable (Client) -> Void {
        { client in
            guard client.send(head) else { return }
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
            var total = 0
            while total < limit, client.send(chunk) { total += chunk.count }
        }
    }

    /// Sends a gzip-encoded body that decodes to `decodedSize` zeros, about 160 times what it
    /// sends (``GzipBomb``).
    public static func gzipBomb(decodedSize: Int) -> @Sendable (Client) -> Void {
        let body = GzipBomb.bytes(decodedSize: decodedSize)
        return { client in
            guard client.send(head(["Content-Type: application/json", "Content-Encoding: gzip", "Content-Length: \(body.count)"])) else { return }
            var offset = 0
            while offset < body.count, client.send(Array(body[offset..<min(offset + 65536, body.count)])) { offset += 65536 }
        }
    }

    /// Accepts, reads the request, and answers nothing until the client gives up (or `limit`
    /// seconds pass).
    public static func silent(limit: Double = 120) -> @Sendable (Client) -> Void {
        { client in
            let end = Date().addingTimeInterval(limit)
            while Date() < end, !client.peerClosed, client.pause(0.05) {}
        }
    }
}

/// A gzip stream of zeros built by hand (no compressor needed): one fixed-Huffman deflate block
/// holding a literal zero and then copies of 258 bytes from one back, 13 bits each, so it
/// decodes to about 160 times its size.
public enum GzipBomb {
    /// A stream that decodes to `decodedSize` zeros, rounded down to one more than a multiple
    /// of 258, with a valid checksum.
    public static func bytes(decodedSize: Int) -> [UInt8] {
        let copies = max(0, (decodedSize - 1) / 258)
        var writer = BitWriter()
        writer.bytes.reserveCapacity(copies * 13 / 8 + 32)
        writer.bytes += [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]  // gzip header: deflate, no name, unknown OS
        writer.write(0b011, bits: 3)  // the last block, fixed Huffman codes
        writer.write(reversed(0x30, bits: 8), bits: 8)  // literal 0
        let copy = reversed(0xC5, bits: 8)  // length 258 (symbol 285), then distance 1 (five zero bits)
        for _ in 0..<copies { writer.write(copy, bits: 13) }
        writer.write(0, bits: 7)  // end of block (symbol 256)
        writer.flush()
        let size = UInt32(truncatingIfNeeded: 1 + copies * 258)
        for value in [crcOfZeros(count: 1 + copies * 258), size] {
            writer.bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        return writer.bytes
    }

    /// A Huffman code's bits in the order deflate writes them (most significant first).
    private static func reversed(_ code: UInt64, bits: Int) -> UInt64 {
        (0..<bits).reduce(0) { $0 | (((code >> $1) & 1) << (bits - 1 - $1)) }
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    /// The CRC-32 of `count` zero bytes.
    private static func crcOfZeros(count: Int) -> UInt32 {
        let table = crcTable
        var crc: UInt32 = 0xFFFF_FFFF
        for _ in 0..<count { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// Writes bit fields least significant bit first, as deflate packs them.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var pending: UInt64 = 0
        private var count = 0

        mutating func write(_ value: UInt64, bits: Int) {
            pending |= value << count
            count += bits
            while count >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: pending))
                pending >>= 8
                count -= 8
            }
        }

        mutating func flush() {
            if count > 0 { bytes.append(UInt8(truncatingIfNeeded: pending)) }
            pending = 0
            count = 0
        }
    }
}
