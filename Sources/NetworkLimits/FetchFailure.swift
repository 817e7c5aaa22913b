import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why ``LimitedFetcher`` got no complete response.
public enum FetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection, or the status line and headers, did not come within the headers timeout.
    case headersTimedOut(Duration)
    /// The request's deadline passed before the response was complete.
    case deadlinePassed(Duration)
    /// The body grew past the limit (decoded bytes).
    case bodyTooLarge(limit: Int)
    /// The connection failed: the URL error (its code tells which failures may pass).
    case transport(URLError.Code)
    /// Something that is not an HTTP answer.
    case notHTTP
    /// The task waiting for the response was cancelled.
    case cancelled

    /// Whether another attempt may succeed: timeouts and connection failures, not a body that is
    /// too large (it would be again) nor a cancelled task.
    public var mayPass: Bool {
        switch self {
        case .headersTimedOut, .deadlinePassed, .transport: return true
        case .bodyTooLarge, .notHTTP, .cancelled: return false
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
        case .transport(let code):
            return Self.describe(code)
        case .notHTTP:
            return "not an HTTP answer"
        case .cancelled:
            return "cancelled"
        }
    }

    private static func describe(_ code: URLError.Code) -> String {
        switch code {
        case .timedOut: return "timed out"
        case .networkConnectionLost: return "the connection was dropped"
        case .cannotConnectToHost: return "could not connect to the server"
        case .notConnectedToInternet: return "not connected to the network"
        case .cannotFindHost, .dnsLookupFailed: return "the host name could not be resolved"
        case .badServerResponse, .cannotParseResponse, .zeroByteResource: return "the answer was cut short or malformed"
        case .secureConnectionFailed: return "the secure connection failed"
        case .unknown: return "the connection failed during the answer"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return "the redirects did not end"
        default: return "the request failed (URL error \(code.rawValue))"
        }
    }
}
