import Foundation
import NetworkLimits
import StoryModel

/// Sends Content Delivery API requests: adds the token, version, language and (for published
/// content) the space's cache version, read once from `spaces/me`; keeps within the rate limits;
/// retries what may pass, all within the configuration's ``NetworkLimits`` (the deadline counts
/// every attempt and wait); and turns every failure into a ``StoryblokError`` that shows the
/// request with the token redacted.
final class StoryblokClient: Sendable {
    /// A successful answer: the JSON object, for listings the `Total` header, and the request
    /// as shown in messages.
    struct Reply: Sendable {
        var json: JSONObject
        var total: Int?
        var request: String
    }

    let configuration: StoryblokConfiguration
    private let fetcher = LimitedFetcher()
    private let limiter = RateLimiter()
    private let cacheVersion: CacheVersion
    private let requestCounter = RequestCounter()

    /// A client for `configuration`; with `cacheVersion`, published requests send it instead of
    /// reading `spaces/me` first.
    init(configuration: StoryblokConfiguration, cacheVersion: Int? = nil) {
        self.configuration = configuration
        self.cacheVersion = CacheVersion(known: cacheVersion)
    }

    /// The number of HTTP requests sent so far, retries and redirects' first legs included.
    var requestsSent: Int { requestCounter.value }

    /// Sends `request`; nil when the API answers 404 (not found).
    func get(_ request: StoryblokRequest) async throws -> Reply? {
        var extra: [(name: String, value: String)] = [("version", configuration.version.rawValue)]
        if configuration.version == .published {
            let version = try await cacheVersion.value { try await self.readSpaceVersion() }
            extra.append(("cv", String(version)))
        }
        if let language = configuration.language { extra.append(("language", language)) }
        return try await send(request, extra: extra)
    }

    /// `spaces/me`'s `space.version`, read now (the version requests send is read once).
    func readSpaceVersion() async throws -> Int {
        let request = StoryblokRequest(endpoint: "spaces/me")
        guard let reply = try await send(request, extra: []) else {
            throw StoryblokError(request: shown(request, extra: []), problem: .unexpectedStatus(404))
        }
        guard let version = reply.json["space"]?["version"]?.numberValue, let integer = Int(exactly: version) else {
            throw StoryblokError(request: shown(request, extra: []), problem: .malformedResponse("no space.version number"))
        }
        return integer
    }

    private func shown(_ request: StoryblokRequest, extra: [(name: String, value: String)]) -> String {
        "GET " + TokenRedaction.redact(request.url(base: configuration.baseURL, extra: extra, token: TokenRedaction.mask), token: configuration.token)
    }

    private func send(_ request: StoryblokRequest, extra: [(name: String, value: String)]) async throws -> Reply? {
        let address = request.url(base: configuration.baseURL, extra: extra, token: configuration.token)
        guard let url = URL(string: address) else {
            throw StoryblokError(request: shown(request, extra: extra), problem: .failed("not a valid URL"))
        }
        let units = RateLimiter.units(entries: request.entries)
        let retry = configuration.retry
        let deadline = RequestDeadline(configuration.limits)
        var backoff = retry.initialDelay
        var lastFailure = ""
        for attempt in 1...retry.attempts {
            await limiter.acquire(units)
            requestCounter.increment()
            let outcome: Outcome
            do throws(FetchFailure) {
                let response = try await fetcher.fetch(LimitedFetcher.Request(url: url), readingBody: true, within: deadline)
                limiter.release(units)
                outcome = Self.outcome(of: response)
            } catch {
                limiter.release(units)
                try Task.checkCancellation()
                outcome = Self.outcome(failure: error)
            }
            switch outcome {
            case .success(var reply):
                reply.request = shown(request, extra: extra)
                return reply
            case .notFound:
                return nil
            case .fatal(let problem):
                throw StoryblokError(request: shown(request, extra: extra), problem: problem)
            case .retry(let failure, let retryAfter):
                lastFailure = failure
                if let retryAfter, retryAfter > retry.maximumDelay {
                    throw StoryblokError(
                        request: shown(request, extra: extra),
                        problem: .gaveUp(attempts: attempt, lastFailure: "\(failure), asked to retry after \(retryAfter)"))
                }
                guard attempt < retry.attempts else { break }
                let wait = max(Self.jittered(backoff), retryAfter ?? .zero)
                guard deadline.allowsRetry(after: wait) else {
                    throw StoryblokError(
                        request: shown(request, extra: extra),
                        problem: .gaveUp(
                            attempts: attempt,
                            lastFailure: "\(failure); the deadline of \(NetworkLimits.shown(configuration.limits.deadline)) leaves no time for another attempt"))
                }
                try await Task.sleep(for: wait)
                backoff = min(backoff * 2, retry.maximumDelay)
            }
        }
        throw StoryblokError(
            request: shown(request, extra: extra),
            problem: .gaveUp(attempts: configuration.retry.attempts, lastFailure: lastFailure))
    }

    private enum Outcome {
        case success(Reply)
        case notFound
        case fatal(StoryblokError.Problem)
        case retry(String, retryAfter: Duration?)
    }

    private static func outcome(of response: LimitedFetcher.Response) -> Outcome {
        switch response.status {
        case 200..<300:
            let value: JSONValue
            do {
                value = try JSONValue(parsing: [UInt8](response.body))
            } catch {
                // A body cut short parses as malformed JSON; a new attempt may get it whole.
                return .retry("the answer was not valid JSON (\(error.description))", retryAfter: nil)
            }
            guard case .object(let object) = value else { return .fatal(.malformedResponse("expected a JSON object")) }
            return .success(Reply(json: object, total: response.header("Total").flatMap { Int($0) }, request: ""))
        case 404:
            return .notFound
        case 401, 403:
            return .fatal(.tokenRejected(status: response.status))
        case 429, 500...599:
            let retryAfter = response.header("Retry-After").flatMap(Self.retryAfter)
            return .retry("HTTP \(response.status)", retryAfter: retryAfter)
        default:
            return .fatal(.unexpectedStatus(response.status))
        }
    }

    private static func outcome(failure: FetchFailure) -> Outcome {
        switch failure {
        case .headersTimedOut, .deadlinePassed:
            return .retry(failure.description, retryAfter: nil)
        case .bodyTooLarge:
            return .fatal(.failed(failure.description + " (storysite.json: source.storyblok.maxResponseMB)"))
        case .notHTTP, .cancelled, .unavailable:
            return .fatal(.failed(failure.description))
        case .transport(let transport):
            switch transport {
            case .connectionLost, .cannotConnect, .cannotFindHost, .malformedAnswer, .secureConnectionFailed, .unknown:
                return .retry(failure.description, retryAfter: nil)
            case .tooManyRedirects, .unsupportedURL:
                return .fatal(.failed(failure.description))
            }
        }
    }

    /// A `Retry-After` value: seconds, or an HTTP date.
    private static func retryAfter(_ text: String) -> Duration? {
        if let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds >= 0 {
            return .milliseconds(Int(min(seconds, 3600) * 1000))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSinceNow * 1000)))
    }

    /// Between half and all of `delay`, so that clients that failed together retry apart.
    private static func jittered(_ delay: Duration) -> Duration {
        delay * Double.random(in: 0.5...1)
    }
}

/// The space's cache version, read once however many requests wait for it.
private actor CacheVersion {
    private var task: Task<Int, any Error>?

    /// With `known`, the version is that and never read.
    init(known: Int?) {
        task = known.map { version in Task { version } }
    }

    func value(_ read: @escaping @Sendable () async throws -> Int) async throws -> Int {
        if let task { return try await task.value }
        let task = Task { try await read() }
        self.task = task
        do {
            return try await task.value
        } catch {
            self.task = nil  // a later call tries again
            throw error
        }
    }
}

/// A count shared by concurrent requests.
private final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
}
