/// The time one request has left under ``NetworkLimits/deadline``, from its first attempt to
/// its last byte, the waits between attempts included.
public struct RequestDeadline: Sendable {
    public let limits: NetworkLimits
    public let end: ContinuousClock.Instant

    /// A deadline starting now.
    public init(_ limits: NetworkLimits) {
        self.limits = limits
        end = .now + limits.deadline
    }

    /// The time left; zero once passed.
    public var remaining: Duration {
        max(.zero, end - .now)
    }

    /// Whether waiting `delay` and then sending another attempt still leaves it time for its
    /// headers.
    public func allowsRetry(after delay: Duration) -> Bool {
        .now + delay + limits.headersTimeout <= end
    }
}
