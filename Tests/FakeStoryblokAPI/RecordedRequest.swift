/// One request the fake API received, for assertions: the endpoint, the query and what it
/// answered.
public struct RecordedRequest: Sendable, Equatable {
    /// The path after the base URL's `/v2/cdn/` (`stories`, `stories/blog/post`, `spaces/me`).
    public var endpoint: String
    /// The query items, decoded; a repeated name keeps its last value.
    public var query: [String: String]
    /// The status answered; 0 for a dropped connection, nil while the answer is delayed.
    public var status: Int?
    /// The fault injected into this request, if any.
    public var fault: FakeFault?

    /// The comma-separated values of a query item (`by_uuids`), or empty.
    public func list(_ name: String) -> [String] {
        query[name].map { $0.split(separator: ",").map(String.init) } ?? []
    }
}
