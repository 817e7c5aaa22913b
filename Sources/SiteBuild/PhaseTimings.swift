import Foundation

/// How long each phase of a build took, in the order the phases ended, with the CPU time the
/// process spent meanwhile (all threads, user and system): printed by `build --timings` to show
/// where the time goes, and how well a phase keeps the cores busy.
public final class PhaseTimings: @unchecked Sendable {
    private struct Phase {
        var name: String
        var wall: Duration
        var cpu: Duration
    }

    private let lock = NSLock()
    private var phases: [Phase] = []

    /// Timings with no phase recorded yet.
    public init() {}

    /// Runs `body`, recording its duration as the phase `name`.
    func measure<T, Failure: Error>(_ name: String, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        let started = (ContinuousClock.now, Self.processorTime())
        defer { record(name, since: started) }
        return try body()
    }

    /// Runs `body`, recording its duration as the phase `name`.
    func measure<T, Failure: Error>(_ name: String, _ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        let started = (ContinuousClock.now, Self.processorTime())
        defer { record(name, since: started) }
        return try await body()
    }

    /// One line per phase, `  render     418 ms   CPU  790 ms`, then the totals.
    public var report: String {
        let phases = lock.withLock { self.phases }
        let width = max(5, phases.map(\.name.count).max() ?? 0)
        func milliseconds(_ duration: Duration) -> String {
            let text = String(Int((duration.seconds * 1000).rounded()))
            return String(repeating: " ", count: max(0, 6 - text.count)) + text + " ms"
        }
        func line(_ name: String, _ wall: Duration, _ cpu: Duration) -> String {
            "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + " " + milliseconds(wall) + "   CPU " + milliseconds(cpu) + "\n"
        }
        return "Timings:\n" + phases.map { line($0.name, $0.wall, $0.cpu) }.joined()
            + line("total", phases.reduce(Duration.zero) { $0 + $1.wall }, phases.reduce(Duration.zero) { $0 + $1.cpu })
    }

    private func record(_ name: String, since started: (wall: ContinuousClock.Instant, cpu: Duration)) {
        let phase = Phase(name: name, wall: ContinuousClock.now - started.wall, cpu: Self.processorTime() - started.cpu)
        lock.withLock { phases.append(phase) }
    }

    /// The CPU time the process has used so far, on all its threads.
    private static func processorTime() -> Duration {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func duration(_ time: timeval) -> Duration { .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec)) }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
