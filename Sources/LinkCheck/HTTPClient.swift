import Foundation

/// One request of an external link check.
public struct HTTPRequest: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable {
        case head = "HEAD"
        case get = "GET"
    }

    public var method: Method
    public var url: URL
    /// How long to wait for the response before giving up.
    public var timeout: Duration

    public init(method: Method, url: URL, timeout: Duration) {
        self.method = method
        self.url = url
        self.timeout = timeout
    }
}

/// Sends the requests of an external link check; ``URLSessionHTTPClient`` by default, a fake in
/// tests.
public protocol HTTPClient: Sendable {
    /// The status code of the response to `request`, after following redirects. Throws
    /// ``HTTPClientError`` when no response came.
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
    /// No response within the request's timeout.
    case timedOut(Duration)
    /// The host could not be reached or the connection failed.
    case failed(String)

    public var description: String {
        switch self {
        case .timedOut(let timeout): return "no response within \(timeout.components.seconds) s"
        case .failed(let reason): return "cannot connect: \(reason)"
        }
    }
}
