import Foundation

/// One timed run of a child process: wall time, CPU time, peak resident memory and what it printed.
struct Measurement {
    var seconds: Double
    /// Peak resident set size in MB, from `/usr/bin/time`; nil when that is not installed.
    var peakMB: Double?
    /// User plus system CPU seconds, from `/usr/bin/time`; nil when that is not installed.
    var cpuSeconds: Double?
    var output: String

    static let timeTool = "/usr/bin/time"

    /// Runs `arguments` in `folder` under `/usr/bin/time` (when present); throws when it fails.
    static func run(_ arguments: [String], in folder: URL) throws -> Measurement {
        let hasTime = FileManager.default.isExecutableFile(atPath: timeTool)
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("build-benchmark-\(getpid()).time")
        let process = Process()
        process.currentDirectoryURL = folder
        if hasTime {
            process.executableURL = URL(fileURLWithPath: timeTool)
            process.arguments = ["-f", "%M %U %S", "-o", report.path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        // The output ends when the process (and /usr/bin/time) exits. waitUntilExit polls, which
        // added up to 60 ms to every figure, so the time is taken at the end of the output.
        let printed = pipe.fileHandleForReading.readDataToEndOfFile()
        let elapsed = clock.now - start
        process.waitUntilExit()
        let output = String(decoding: printed, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(arguments.joined(separator: " ")) exited with \(process.terminationStatus):\n\(output)")
        }
        var peak: Double?
        var cpu: Double?
        if hasTime, let text = try? String(contentsOf: report, encoding: .utf8),
           let figures = text.split(separator: "\n").last?.split(separator: " ").compactMap({ Double($0) }), figures.count == 3 {
            peak = figures[0] / 1024
            cpu = figures[1] + figures[2]
        }
        try? FileManager.default.removeItem(at: report)
        let (seconds, attoseconds) = elapsed.components
        return Measurement(seconds: Double(seconds) + Double(attoseconds) / 1e18, peakMB: peak, cpuSeconds: cpu, output: output)
    }
}

/// A failed benchmark step.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The median of `values` (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
