/// A request as the server received it, its body read whole (at most 8 MiB; more gets 413).
public struct HTTPRequest: Sendable {
    /// One `name=value` pair of the query, percent-decoded (`+` is a space). A pair without
    /// `=` has an empty value.
    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `GET`, `HEAD`, …
    public var method: String
    /// The path as sent, percent-encoding kept (`/docs/a%20b`), without the query.
    public var path: String
    /// The query as sent, without the `?`; nil when the request target has none.
    public var query: String?
    /// The query's pairs in order, decoded.
    public var queryItems: [QueryItem]
    /// The request headers in order.
    public var headers: [HTTPHeader]
    /// The body as sent; empty when there is none.
    public var body: [UInt8]
    /// Whether the client connected from a loopback address (127.0.0.0/8 or ::1, mapped or not).
    public var isFromLoopback = false

    /// A request for `target` (`/path?query`, as on the request line).
    public init(method: String, target: String, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.method = method
        self.headers = headers
        self.body = body
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            let query = String(target[target.index(after: mark)...])
            self.query = query
            queryItems = PercentDecoding.queryItems(query)
        } else {
            path = target
            query = nil
            queryItems = []
        }
    }

    /// The first value of the query item `name`, or nil.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The value of the first header named `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }
}
