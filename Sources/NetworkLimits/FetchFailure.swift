import Foundation

/// Why ``LimitedFetcher`` got no complete response.
public enum FetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection, or the status line and headers, did not come within the headers timeout.
    case headersTimedOut(Duration)
    /// The request's deadline passed before the response was complete.
    case deadlinePassed(Duration)
    /// The body grew past the limit (decoded bytes).
    case bodyTooLarge(limit: Int)
    /// The connection failed, in the way given.
    case transport(TransportFailure)
    /// Something that is not an HTTP answer.
    case notHTTP
    /// The task waiting for the response was cancelled.
    case cancelled
    /// libcurl could not be loaded: why.
    case unavailable(String)

    /// Whether another attempt may succeed: timeouts and connection failures, not a body that is
    /// too large (it would be again), a cancelled task, nor a libcurl that could not be loaded.
    public var mayPass: Bool {
        switch self {
        case .headersTimedOut, .deadlinePassed, .transport: return true
        case .bodyTooLarge, .notHTTP, .cancelled, .unavailable: return false
        }
    }

    public var description: String {
        switch self {
        case .headersTimedOut(let timeout):
            return "no response within \(NetworkLimits.shown(timeout))"
        case .deadlinePassed(let deadline):
            return "the response was not complete within the deadline of \(NetworkLimits.shown(deadline))"
        case .bodyTooLarge(let limit):
            return "the response is larger than the limit of \(NetworkLimits.shown(bytes: limit))"
        case .transport(let failure):
            return failure.description
        case .notHTTP:
            return "not an HTTP answer"
        case .cancelled:
            return "cancelled"
        case .unavailable(let reason):
            return "libcurl, which sends requests, could not be loaded (\(reason)): install the package libcurl4"
        }
    }
}

/// How a connection failed.
public enum TransportFailure: Sendable, Equatable, CustomStringConvertible {
    case cannotConnect
    case cannotFindHost
    case connectionLost
    case secureConnectionFailed
    case tooManyRedirects
    /// The answer was cut short, or is not one an HTTP client can read.
    case malformedAnswer
    /// The URL's scheme is not one that can be requested, or the URL is malformed.
    case unsupportedURL
    case unknown

    public var description: String {
        switch self {
        case .cannotConnect: return "could not connect to the server"
        case .cannotFindHost: return "the host name could not be resolved"
        case .connectionLost: return "the connection was dropped"
        case .secureConnectionFailed: return "the secure connection failed"
        case .tooManyRedirects: return "the redirects did not end"
        case .malformedAnswer: return "the answer was cut short or malformed"
        case .unsupportedURL: return "the URL cannot be requested"
        case .unknown: return "the connection failed during the answer"
        }
    }
}
