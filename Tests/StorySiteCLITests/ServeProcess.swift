#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TestSupport

/// A running `storysite serve`, started in a folder; its URL is read from what it prints.
/// Blocking reads happen on threads of their own, off the cooperative pool.
final class ServeProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let process = Process()
    private let lock = NSLock()
    private var stdout = Data()
    private var stderr = Data()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `storysite serve <arguments>` in `folder`.
    init(_ arguments: [String], in folder: URL) throws {
        process.executableURL = Executable.url
        process.arguments = ["serve"] + arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        collect(out) { self.stdout.append($0) }
        collect(err) { self.stderr.append($0) }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var output: String { lock.withLock { String(decoding: stdout, as: UTF8.self) } }
    var errors: String { lock.withLock { String(decoding: stderr, as: UTF8.self) } }

    /// The URL from `Serving … at <url> (Ctrl-C to stop)`, once printed (10 s at most).
    func url() async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("Serving ") }),
               let start = line.range(of: " at "), let end = line.range(of: " (Ctrl-C") {
                return String(line[start.upperBound..<end.lowerBound])
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "no URL printed; stdout: \(output) stderr: \(errors)")
    }

    /// Sends SIGTERM and returns the exit status (nil if it did not exit within 10 s).
    func terminate() async -> Int32? {
        kill(process.processIdentifier, SIGTERM)
        return await exitStatus()
    }

    /// The exit status once the process ends by itself (nil if it did not within 10 s).
    func exitStatus() async -> Int32? {
        await withCheckedContinuation { continuation in
            Thread {
                let ended = self.finished.wait(timeout: .now() + 10) == .success
                continuation.resume(returning: ended ? self.process.terminationStatus : nil)
            }.start()
        }
    }

    private func collect(_ pipe: Pipe, _ append: @escaping @Sendable (Data) -> Void) {
        Thread {
            let handle = pipe.fileHandleForReading
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                self.lock.withLock { append(data) }
            }
            if pipe === (self.process.standardOutput as? Pipe) {
                self.process.waitUntilExit()
                self.finished.signal()
            }
        }.start()
    }
}

/// A plain socket connection for the server's event stream, whose chunks URLSession would hold back.
final class ServeEventStream: @unchecked Sendable {
    private let socket: Int32
    private let lock = NSLock()
    private var received: [UInt8] = []

    /// Opens `/_storysite/events` on the server at `url` (`http://127.0.0.1:port/`).
    init(url: String) throws {
        guard let port = URL(string: url)?.port else { throw ServeProcess.Failure(description: "no port in \(url)") }
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(socket)
            throw ServeProcess.Failure(description: "cannot connect to \(url)")
        }
        let request = Array("GET /_storysite/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    deinit {
        close(socket)
    }

    var text: String { lock.withLock { String(decoding: received, as: UTF8.self) } }

    /// Waits until the text received holds `condition` (bounded by `timeout` seconds).
    func wait(timeout: Double = 10, for condition: @escaping @Sendable (String) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread {
                let deadline = Date().addingTimeInterval(timeout)
                while !condition(self.text), deadline.timeIntervalSinceNow > 0 {
                    var poller = pollfd(fd: self.socket, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 100) > 0 else { continue }
                    var chunk = [UInt8](repeating: 0, count: 16384)
                    let count = chunk.withUnsafeMutableBytes { recv(self.socket, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { break }
                    self.lock.withLock { self.received += chunk[..<count] }
                }
                continuation.resume(returning: condition(self.text))
            }.start()
        }
    }
}
