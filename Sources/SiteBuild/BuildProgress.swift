/// Where a build reports how it is getting on, phase by phase: the command line draws a bar or
/// prints lines; ``SilentProgress`` shows nothing. Called from several threads at once.
public protocol BuildProgress: Sendable {
    /// Starts a phase of `total` steps (0 when unknown).
    func begin(_ phase: String, total: Int)
    /// Records `count` more steps done.
    func advance(by count: Int)
    /// Ends the phase with a line saying what it did.
    func finish(_ summary: String)
}

extension BuildProgress {
    /// Starts a phase of an unknown number of steps.
    public func begin(_ phase: String) { begin(phase, total: 0) }

    /// Records one more step done.
    public func advance() { advance(by: 1) }
}

/// Progress that shows nothing, for callers that want none (tests, embedders).
public struct SilentProgress: BuildProgress {
    public init() {}

    public func begin(_ phase: String, total: Int) {}
    public func advance(by count: Int) {}
    public func finish(_ summary: String) {}
}
