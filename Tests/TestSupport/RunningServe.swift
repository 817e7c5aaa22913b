import Foundation

/// A running `storysite serve` for the benchmarks, its output (standard output and error
/// together) collected as it arrives.
public final class RunningServe: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let process = Process()
    // Safe to share: `text` is only touched holding the lock.
    private let lock = NSLock()
    private var text = ""

    /// Starts `command` (the executable, then its arguments: `storysite serve --port 0 …`) in
    /// `folder`, with `environment` added to this process's and colour off.
    public init(_ command: [String], in folder: URL, environment extra: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        Thread {
            while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty {
                self.lock.withLock { self.text += String(decoding: data, as: UTF8.self) }
            }
        }.start()
    }

    /// Everything printed so far.
    public var output: String { lock.withLock { text } }

    /// Waits until the output holds `marker` (up to `timeout` seconds).
    public func wait(for marker: String, timeout: Double = 600) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while !output.contains(marker) {
            guard ContinuousClock.now < deadline, process.isRunning else { throw Failure(description: "no '\(marker)' in: \(output)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The URL serve printed once its first build was done.
    public func url() async throws -> String {
        try await wait(for: " (Ctrl-C to stop)", timeout: 60)
        let line = output.split(separator: "\n").first { $0.hasPrefix("Serving ") && $0.contains(" at http") }!
        return String(line[line.range(of: " at ")!.upperBound..<line.range(of: " (Ctrl-C")!.lowerBound])
    }

    /// Stops the server and waits for it to exit.
    public func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
