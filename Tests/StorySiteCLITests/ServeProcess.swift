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
    /// What the reading threads fill; they hold it, not this object, so a test that fails
    /// before ``terminate()`` still kills the server when its `ServeProcess` goes away.
    private final class Collected: @unchecked Sendable {
        let lock = NSLock()
        var stdout = Data()
        var stderr = Data()
        let finished = DispatchSemaphore(value: 0)
    }

    private let collected = Collected()

    /// Starts `storysite serve <arguments>` in `folder`, with `environment` added to this process's.
    init(_ arguments: [String], in folder: URL, environment extra: [String: String] = [:]) throws {
        process.executableURL = Executable.url
        process.arguments = ["serve"] + arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let collected = self.collected
        Self.collect(out, into: collected, process: process) { collected.stdout.append($0) }
        Self.collect(err, into: collected, process: nil) { collected.stderr.append($0) }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var output: String { collected.lock.withLock { String(decoding: collected.stdout, as: UTF8.self) } }
    var errors: String { collected.lock.withLock { String(decoding: collected.stderr, as: UTF8.self) } }

    /// The URL from `Serving … at <url> (Ctrl-C to stop)`, once printed (10 s at most).
    /// The output is read again after every wait, the last one included, so a test task that
    /// wakes late on a busy machine still finds a URL printed in time.
    func url() async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("Serving ") }),
               let start = line.range(of: " at "), let end = line.range(of: " (Ctrl-C") {
                return String(line[start.upperBound..<end.lowerBound])
            }
            guard ContinuousClock.now < deadline, process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "no URL printed; stdout: \(output) stderr: \(errors)")
    }

    /// Whether standard error contains `text`, waiting for it up to `timeout` seconds while the
    /// server runs.
    func printsError(_ text: String, timeout: Int = 10) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while !errors.contains(text) {
            guard ContinuousClock.now < deadline, process.isRunning else { return errors.contains(text) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Sends SIGTERM and returns the exit status (nil if it did not exit within 10 s).
    func terminate() async -> Int32? {
        kill(process.processIdentifier, SIGTERM)
        return await exitStatus()
    }

    /// The exit status once the process ends by itself (nil if it did not within 10 s).
    func exitStatus() async -> Int32? {
        await withCheckedContinuation { continuation in
            Thread { [collected] in
                let ended = collected.finished.wait(timeout: .now() + 10) == .success
                continuation.resume(returning: ended ? self.process.terminationStatus : nil)
            }.start()
        }
    }

    /// Reads `pipe` to its end on a thread of its own; with `process` (standard output's
    /// reader), waits for it to exit and signals `finished`.
    private static func collect(
        _ pipe: Pipe, into collected: Collected, process: Process?, _ append: @escaping @Sendable (Data) -> Void
    ) {
        Thread {
            let handle = pipe.fileHandleForReading
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                collected.lock.withLock { append(data) }
            }
            if let process {
                process.waitUntilExit()
                collected.finished.signal()
            }
        }.start()
    }
}

extension LoopbackConnection {
    /// Opens `/_storysite/events` on the server at `url` (`http://127.0.0.1:port/`), whose chunks
    /// URLSession would hold back.
    static func events(at url: String) throws -> LoopbackConnection {
        guard let port = URL(string: url)?.port else { throw ServeProcess.Failure(description: "no port in \(url)") }
        let connection = try LoopbackConnection(port: port)
        connection.send("GET /_storysite/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return connection
    }
}
