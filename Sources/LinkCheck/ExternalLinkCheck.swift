import Foundation
import NetworkLimits

/// Checks `http(s)` URLs over the network: each URL once per run, HEAD first and GET where HEAD
/// is refused, a bounded number of requests per host and of hosts at once, bounded retries with
/// exponential backoff for failures that may pass (no response, 5xx), all within the
/// ``NetworkLimits`` of ``Options/limits``: each request's headers within the headers timeout,
/// each link (HEAD, GET and their retries) within the deadline, and no body read. HTTP 429 is
/// not a broken link but a warning. Where no host name resolves (see
/// ``HTTPClient/resolvesHostNames(probing:)``), nothing is requested and every URL is unchecked.
public struct ExternalLinkCheck: Sendable {
    public struct Options: Sendable {
        /// Requests in flight to one host.
        public var requestsPerHost: Int
        /// Hosts being checked at once.
        public var concurrentHosts: Int
        /// The headers timeout of each request and the deadline of each link.
        public var limits: NetworkLimits
        /// Further tries after a failure that may pass.
        public var retries: Int
        /// The wait before the first retry; doubled for each further one.
        public var retryDelay: Duration

        public init(
            requestsPerHost: Int = 2, concurrentHosts: Int = 8, limits: NetworkLimits = .linkCheck,
            retries: Int = 2, retryDelay: Duration = .milliseconds(500)
        ) {
            self.requestsPerHost = max(1, requestsPerHost)
            self.concurrentHosts = max(1, concurrentHosts)
            self.limits = limits
            self.retries = max(0, retries)
            self.retryDelay = retryDelay
        }
    }

    public var client: any HTTPClient
    public var options: Options

    public init(client: any HTTPClient = LimitedHTTPClient(), options: Options = Options()) {
        self.client = client
        self.options = options
    }

    /// The status of each URL in `urls`, each distinct one requested once: fragments are not
    /// sent and scheme and host are case-insensitive, so `HTTPS://Example.com/a#x` and
    /// `https://example.com/a#y` are one request.
    public func check(_ urls: [URL]) async -> [URL: ExternalLinkStatus] {
        var seen: Set<URL> = []
        var byHost: [String: [URL]] = [:]
        var hosts: [String] = []
        for url in urls {
            let requested = Self.requested(url)
            guard seen.insert(requested).inserted else { continue }
            let host = requested.host?.lowercased() ?? ""
            if byHost[host] == nil { hosts.append(host) }
            byHost[host, default: []].append(requested)
        }
        if !hosts.isEmpty, await !client.resolvesHostNames(probing: hosts) {
            return Dictionary(urls.map { ($0, .unchecked(Self.noNameResolution)) }, uniquingKeysWith: { first, _ in first })
        }
        let groups = hosts.map { byHost[$0] ?? [] }
        let perHost = await concurrentMap(groups, limit: options.concurrentHosts) { [self] hostURLs in
            return zip(hostURLs, await concurrentMap(hostURLs, limit: options.requestsPerHost) { await status(of: $0) })
                .map { ($0, $1) }
        }
        var statuses: [URL: ExternalLinkStatus] = [:]
        for (url, status) in perHost.joined() { statuses[url] = status }
        for url in urls { statuses[url] = statuses[Self.requested(url)] }
        return statuses
    }

    /// Why no external link was checked when no host name resolves.
    public static let noNameResolution = "no host name resolves here (no network or DNS?)"

    private func status(of url: URL) async -> ExternalLinkStatus {
        let deadline = RequestDeadline(options.limits)
        switch await response(.head, url, deadline) {
        case .success(let code) where Self.isSuccess(code): return .reachable
        case .success(429): return .rateLimited
        case .failure(let error): return .broken(error.description)
        case .success: break
        }
        switch await response(.get, url, deadline) {
        case .success(let code) where Self.isSuccess(code): return .reachable
        case .success(429): return .rateLimited
        case .success(let code): return .broken("HTTP \(code)")
        case .failure(let error): return .broken(error.description)
        }
    }

    /// The response to one request, retried while it fails in a way that may pass and the
    /// link's deadline leaves time for another attempt.
    private func response(_ method: HTTPRequest.Method, _ url: URL, _ deadline: RequestDeadline) async -> Result<Int, HTTPClientError> {
        let request = HTTPRequest(method: method, url: url, deadline: deadline)
        var delay = options.retryDelay
        for attempt in 0...options.retries {
            let result: Result<Int, HTTPClientError>
            do {
                result = .success(try await client.status(for: request))
            } catch {
                result = .failure(error)
            }
            let mayPass: Bool
            switch result {
            case .success(let code): mayPass = (500...599).contains(code) && code != 501
            case .failure: mayPass = true
            }
            guard mayPass, attempt < options.retries, deadline.allowsRetry(after: delay) else { return result }
            try? await Task.sleep(for: delay)
            delay *= 2
        }
        preconditionFailure("the last attempt returns")
    }

    private static func isSuccess(_ code: Int) -> Bool {
        (200...399).contains(code)
    }

    /// The URL as requested: without fragment, scheme and host lowercased.
    private static func requested(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.percentEncodedHost = components.percentEncodedHost?.lowercased()
        return components.url ?? url
    }
}
