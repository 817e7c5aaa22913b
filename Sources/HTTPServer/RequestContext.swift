/// One request's state while the handler runs, from the URI log callback (which sees the raw
/// target) to the completion callback. Guarded by the ``ServerCore`` lock.
final class RequestContext: @unchecked Sendable {
    enum State {
        /// The URI was seen; MHD has not yet called the handler.
        case received
        /// The headers were read; the body (if any) is being read and dropped.
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
    var task: Task<Void, Never>?

    init(target: String) {
        self.target = target
    }
}
