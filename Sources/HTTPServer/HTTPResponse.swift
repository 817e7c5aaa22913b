/// What the server sends back: a status, headers and a body that is either bytes, a stream of
/// chunks (for long-lived answers such as Server-Sent Events), or no answer at all.
///
/// `Content-Length` is set by the server; a `HEAD` request gets the headers only.
public struct HTTPResponse: Sendable {
    /// How the body is produced.
    public enum Body: Sendable {
        /// The whole body at once.
        case bytes([UInt8])
        /// Chunks sent as the stream yields them. With a `length`, it is announced as
        /// `Content-Length`; without, the body is sent chunked. A stream that ends with an
        /// error, or before `length` bytes, closes the connection mid-body; the stream is
        /// cancelled when the client goes away or the server stops.
        case stream(AsyncThrowingStream<[UInt8], any Error>, length: Int?)
        /// No answer: the connection is closed at once (status and headers are not sent).
        case dropConnection
    }

    public var status: Int
    public var headers: [HTTPHeader]
    public var body: Body

    public init(status: Int = 200, headers: [HTTPHeader] = [], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with `bytes` as the body.
    public init(status: Int = 200, headers: [HTTPHeader] = [], bytes: [UInt8]) {
        self.init(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A response with `text` as a UTF-8 body; `contentType` is added unless `headers` name one.
    public init(status: Int = 200, headers: [HTTPHeader] = [], text: String, contentType: String = "text/plain; charset=utf-8") {
        var headers = headers
        if headers.value(named: "Content-Type") == nil { headers.append(HTTPHeader("Content-Type", contentType)) }
        self.init(status: status, headers: headers, body: .bytes(Array(text.utf8)))
    }

    /// Closes the connection without answering.
    public static let dropConnection = HTTPResponse(status: 0, body: .dropConnection)
}
