import Foundation
import NetworkLimits

/// The default ``HTTPClient``: a ``NetworkLimits/LimitedFetcher`` (no cache, no cookies,
/// redirects followed) under the request's limits; it stops once the status is in and reads
/// no body.
public struct LimitedHTTPClient: HTTPClient {
    private let fetcher = LimitedFetcher(headers: ["User-Agent": "storysite-check (link checker)"])

    public init() {}

    public func status(for request: HTTPRequest) async throws(HTTPClientError) -> Int {
        let sent = LimitedFetcher.Request(url: request.url, method: request.method.rawValue)
        do throws(FetchFailure) {
            return try await fetcher.fetch(sent, readingBody: false, within: request.deadline).status
        } catch {
            switch error {
            case .headersTimedOut(let timeout): throw .timedOut(timeout)
            case .deadlinePassed(let deadline): throw .deadlinePassed(deadline)
            default: throw .failed(error.description)
            }
        }
    }
}
