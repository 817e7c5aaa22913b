/// One request's state while the handler runs, from the URI log callback (which sees the raw
/// target) to the completion callback. Guarded by the ``ServerCore`` lock.
final class RequestContext: @unchecked Sendable {
    enum State {
        /// The URI was seen; MHD has not yet called the handler.
        case received
        /// The headers were read; the body (if any) is being read into ``body``.
        case headersRead
        /// The handler is running and the connection is suspended.
        case waiting
        /// The handler answered; the next access callback queues this.
        case ready(HTTPResponse)
        /// The response was queued (or the connection ended).
        case answered
    }

    /// The request target as on the request line, percent-encoding kept.
    let target: String
    var state: State = .received
    /// The body read so far, up to ``maxBodyBytes``.
    var body: [UInt8] = []
    /// Whether the body was longer than ``maxBodyBytes`` (the rest was dropped; the answer is 413).
    var bodyTooLarge = false
    /// The most body bytes a request may send: enough for any story's JSON.
    static let maxBodyBytes = 8 << 20
    var task: Task<Void, Never>?

    init(target: String) {
        self.target = target
    }
}
