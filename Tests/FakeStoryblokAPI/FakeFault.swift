/// A failure the fake API can be told to produce for its next requests.
public enum FakeFault: Sendable, Equatable {
    /// Answers 500 with a JSON error body.
    case serverError
    /// Waits this long before answering (normally), to make a client time out.
    case slow(Duration)
    /// Announces the full `Content-Length` but closes the connection halfway through the body.
    case truncatedBody
    /// Closes the connection without answering.
    case droppedConnection
    /// Answers 429 with `Retry-After` in seconds, as if the rate limit were exceeded.
    case tooManyRequests(retryAfter: Int)
}
