import Foundation
import NetworkLimits

/// One request of an external link check.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable, Hashable {
        case head = "HEAD"
        case get = "GET"
    }

    public var method: Method
    public var url: URL
    /// The deadline of the link this request checks (its HEAD, GET and retries share it), and
    /// the limits it came from.
    public var deadline: RequestDeadline

    public init(method: Method, url: URL, deadline: RequestDeadline) {
        self.method = method
        self.url = url
        self.deadline = deadline
    }
}

/// Sends the requests of an external link check; ``LimitedHTTPClient`` by default, a fake in
/// tests.
public protocol HTTPClient: Sendable {
    /// The status code of the response to `request`, after following redirects, without reading
    /// its body. Throws ``HTTPClientError`` when no response came within the request's limits.
    func status(for request: HTTPRequest) async throws(HTTPClientError) -> Int

    /// Whether host names resolve here at all, asked once before a check sends a request, with
    /// the hosts of the links to check. When not, nothing is sent and every link is unchecked.
    func resolvesHostNames(probing hosts: [String]) async -> Bool
}

extension HTTPClient {
    /// Clients that resolve no names (fakes, local servers) need no network: true.
    public func resolvesHostNames(probing hosts: [String]) async -> Bool { true }
}

/// Why a request got no response.
public enum HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No response within the headers timeout.
    case timedOut(Duration)
    /// No response before the link's deadline passed.
    case deadlinePassed(Duration)
    /// The host could not be reached or the connection failed.
    case failed(String)

    public var description: String {
        switch self {
        case .timedOut(let timeout): return "no response within \(NetworkLimits.shown(timeout))"
        case .deadlinePassed(let deadline): return "no response within the link's deadline of \(NetworkLimits.shown(deadline))"
        case .failed(let reason): return "cannot connect: \(reason)"
        }
    }
}
