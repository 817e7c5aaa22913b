import Foundation
import TestSupport

/// Runs the built `storysite` executable the way a user would, in a given working folder.
struct Executable {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable next to the test bundle in SwiftPM's build folder.
    static let url: URL = {
        let bundleFolder = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [
            bundleFolder.appendingPathComponent("storysite"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("storysite"),
            SharedFixtures.repositoryRoot.appendingPathComponent(".build/debug/storysite"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }()

    /// A launcher under which file modes apply even when the tests run as root: `setpriv`
    /// without the two capabilities that let root read and search any folder
    /// (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH). Empty when not root, where modes apply anyway.
    static let honouringPermissions: [String] =
        geteuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search"] : []

    /// Runs `storysite <arguments>` in `folder` and waits for it on a thread of its own, so tests
    /// that serve HTTP from Swift concurrency (the fake API) keep the cooperative pool free.
    /// With a `launcher` (`["/usr/bin/unshare", "-n"]`), runs `launcher storysite <arguments>`;
    /// ``honouringPermissions`` is one.
    static func run(
        _ arguments: [String], in folder: URL, environment: [String: String] = [:], launcher: [String] = []
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result {
                    try runBlocking(arguments, in: folder, environment: environment, launcher: launcher)
                })
            }
        }
    }

    private static func runBlocking(_ arguments: [String], in folder: URL, environment: [String: String], launcher: [String]) throws -> Result {
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [url.path] + arguments
        } else {
            process.executableURL = url
            process.arguments = arguments
        }
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain both pipes while the child runs, so a full pipe can never block it.
        let errorReader = PipeReader(err)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errorReader.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Reads a pipe to its end on a background queue.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        DispatchQueue.global().async {
            self.data = pipe.fileHandleForReading.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
