import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``HTTPClient``: a `URLSession` without caches or cookies, following redirects.
public struct URLSessionHTTPClient: HTTPClient {
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["User-Agent": "storysite-check (link checker)"]
        session = URLSession(configuration: configuration)
    }

    public func status(for request: HTTPRequest) async throws(HTTPClientError) -> Int {
        let seconds = Double(request.timeout.components.seconds) + Double(request.timeout.components.attoseconds) / 1e18
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: seconds)
        urlRequest.httpMethod = request.method.rawValue
        let response: URLResponse
        do {
            (_, response) = try await session.data(for: urlRequest)
        } catch let error as URLError where error.code == .timedOut {
            throw .timedOut(request.timeout)
        } catch {
            throw .failed(error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else { throw .failed("not an HTTP response") }
        return http.statusCode
    }
}
