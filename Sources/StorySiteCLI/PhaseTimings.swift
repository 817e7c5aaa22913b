import Foundation

/// How long each phase of a build took, in the order the phases ended: printed by
/// `build --timings` to show where the time goes.
final class PhaseTimings: @unchecked Sendable {
    private let lock = NSLock()
    private var phases: [(name: String, duration: Duration)] = []

    /// Runs `body`, recording its duration as the phase `name`.
    func measure<T, Failure: Error>(_ name: String, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        let started = ContinuousClock.now
        defer { record(name, since: started) }
        return try body()
    }

    /// Runs `body`, recording its duration as the phase `name`.
    func measure<T, Failure: Error>(_ name: String, _ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        let started = ContinuousClock.now
        defer { record(name, since: started) }
        return try await body()
    }

    /// One line per phase, `  render     418 ms`, then the total of the phases.
    var report: String {
        let phases = lock.withLock { self.phases }
        let width = phases.map(\.name.count).max() ?? 0
        func line(_ name: String, _ duration: Duration) -> String {
            let milliseconds = String(Int((duration.seconds * 1000).rounded()))
            return "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + " "
                + String(repeating: " ", count: max(0, 6 - milliseconds.count)) + milliseconds + " ms\n"
        }
        return "Timings:\n" + phases.map { line($0.name, $0.duration) }.joined()
            + line("total", phases.reduce(Duration.zero) { $0 + $1.duration })
    }

    private func record(_ name: String, since started: ContinuousClock.Instant) {
        let duration = ContinuousClock.now - started
        lock.withLock { phases.append((name, duration)) }
    }
}
