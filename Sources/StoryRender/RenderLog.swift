import Foundation

/// What rendering one page found: warnings, missing component templates, and the first
/// template error raised where it could not be thrown (inside a richtext `blok`). Template
/// lambdas report into it too, which is why it is shared and locked.
final class RenderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var warnings: [RenderWarning] = []
    private var missingComponents: [String] = []
    private var failure: (any Error)?

    func add(_ newWarnings: [RenderWarning]) {
        guard !newWarnings.isEmpty else { return }
        lock.withLock { warnings += newWarnings }
    }

    func add(_ warning: RenderWarning) {
        lock.withLock { warnings.append(warning) }
    }

    /// Records partials a template asked for and did not find (component names).
    func addMissing(_ names: [String]) {
        guard !names.isEmpty else { return }
        lock.withLock { missingComponents += names }
    }

    /// Records `error` unless an earlier one is already recorded.
    func fail(_ error: any Error) {
        lock.withLock {
            if failure == nil { failure = error }
        }
    }

    /// Throws the recorded error, if any.
    func throwIfFailed() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }

    /// The warnings in the order found, without repeats.
    var uniqueWarnings: [RenderWarning] {
        lock.withLock {
            var seen = Set<RenderWarning>()
            return warnings.filter { seen.insert($0).inserted }
        }
    }

    /// The missing component names, sorted, without repeats.
    var uniqueMissingComponents: [String] {
        lock.withLock { Array(Set(missingComponents)).sorted() }
    }
}
