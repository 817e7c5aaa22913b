/// The bounds on every request storysite sends, one rule for the Content Delivery API client
/// and the external link check alike:
///
/// - the connection and the response's status line and headers must arrive within
///   ``headersTimeout``, for each attempt;
/// - the whole request, every attempt, body and wait between attempts included, ends within
///   ``deadline``: a retry that would not fit is not made;
/// - a body is read only up to ``maximumBodySize`` bytes as decoded (after gzip or deflate), and
///   the request fails once it grows past them, while it streams.
///
/// ``LimitedFetcher`` enforces them.
public struct NetworkLimits: Sendable, Equatable, CustomStringConvertible {
    public var headersTimeout: Duration
    public var deadline: Duration
    public var maximumBodySize: Int

    public init(headersTimeout: Duration, deadline: Duration, maximumBodySize: Int) {
        self.headersTimeout = max(.milliseconds(1), headersTimeout)
        self.deadline = max(.milliseconds(1), deadline)
        self.maximumBodySize = max(0, maximumBodySize)
    }

    /// For the Content Delivery API: headers within 10 s, each request within 60 s with its
    /// retries, bodies up to 16 MiB (a page of 100 stories is well below 1 MiB in most spaces).
    public static let api = NetworkLimits(headersTimeout: .seconds(10), deadline: .seconds(60), maximumBodySize: 16 << 20)

    /// For one external link (HEAD, GET where HEAD is refused, and their retries): headers within
    /// 10 s, the link within 30 s. No body is read: the status is all a link check needs.
    public static let linkCheck = NetworkLimits(headersTimeout: .seconds(10), deadline: .seconds(30), maximumBodySize: 0)

    /// `headers within 10 s, done within 60 s, bodies up to 16 MiB`.
    public var description: String {
        "headers within \(Self.shown(headersTimeout)), done within \(Self.shown(deadline)), bodies up to \(Self.shown(bytes: maximumBodySize))"
    }

    /// `10 s`, `0.25 s`: a duration as messages show it.
    public static func shown(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return "\(Double(milliseconds) / 1000) s"
    }

    /// `16 MiB`, `64 KiB`, `300 bytes`: a size as messages show it.
    public static func shown(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
