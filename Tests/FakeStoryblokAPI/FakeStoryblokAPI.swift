import Foundation
import HTTPServer
import StoryModel

/// A stand-in for Storyblok's Content Delivery API v2 on 127.0.0.1, serving a fixed set of
/// stories, for tests and benchmarks.
///
/// Endpoints (under ``basePath``): `spaces/me`; `stories/<full_slug>`, `stories/<id>` and
/// `stories/<uuid>?find_by=uuid`; `stories` with `by_uuids`, `by_slugs`, `per_page` (at most
/// 100) and `page`, answering `Total` and `Per-Page` headers; `links` (at most 1000 per page,
/// folders included). Every request needs `token` (the public or the preview token; `version=draft`
/// only the preview token), else 401. A `cv` other than the space's version is redirected to the
/// current one (301). The documented rate limits are enforced over a sliding second (429 with
/// `Retry-After: 1`), every answer can be delayed by ``latency``, and ``inject(_:times:endpointPrefix:)``
/// makes the next requests fail. Every request is recorded in ``requests``. `language=<code>`
/// answers every story translated into the code, its `full_slug` the translated path and
/// `default_full_slug` the default one (see ``FakeCatalog``); without it, stories come without
/// their `__i18n__` keys, with `lang` `default`.
///
/// The space can change while it serves, as an editor changes it: ``publish(_:)`` adds or
/// replaces stories, ``delete(uuid:)`` removes one, and each bumps ``spaceVersion`` (the `cv`
/// of `spaces/me`) as publishing does. `stories` answers `published_at_gt` and `updated_at_gt`
/// (`YYYY-MM-DD HH:MM`, UTC) for delta updates. ``outage`` makes every request fail until it is
/// cleared, as when the API is down.
public final class FakeStoryblokAPI: @unchecked Sendable {
    /// The path every endpoint is under.
    public static let basePath = "/v2/cdn"

    /// The token for published content.
    public let publicToken: String
    /// The token that also reads drafts.
    public let previewToken: String

    private var catalog: FakeCatalog
    private var stories: [Story]
    private let lock = NSLock()
    private var server: HTTPServer?
    private var port: Int?
    private var settings: Settings
    private var faults: [(fault: FakeFault, endpointPrefix: String?)] = []
    private var log: [RecordedRequest] = []
    /// How many requests ``resetLog()`` forgot: a request's place in ``log`` is its arrival
    /// number less this.
    private var forgotten = 0
    private var window = RateWindow()

    private struct Settings {
        var spaceVersion: Int
        var latency: Duration = .zero
        var enforcesRateLimits = true
        var relations: [String: [String]] = [:]
        var outage: FakeFault?
    }

    /// A fake serving `stories` (listed in this order).
    public init(
        stories: [Story], publicToken: String = "public-token", previewToken: String = "preview-token",
        spaceVersion: Int = 1_700_000_000
    ) {
        catalog = FakeCatalog(stories)
        self.stories = stories
        self.publicToken = publicToken
        self.previewToken = previewToken
        settings = Settings(spaceVersion: spaceVersion)
    }

    /// A fake serving the stories of a folder of JSON files (`{"story": …}`, bare stories or
    /// `{"stories": […]}` lists), in path order.
    public convenience init(
        folder: URL, publicToken: String = "public-token", previewToken: String = "preview-token",
        spaceVersion: Int = 1_700_000_000
    ) throws {
        self.init(stories: try FakeCatalog.stories(in: folder), publicToken: publicToken, previewToken: previewToken, spaceVersion: spaceVersion)
    }

    deinit {
        stop()
    }

    /// Starts serving on 127.0.0.1 and returns the base URL (`http://127.0.0.1:<port>/v2/cdn`).
    @discardableResult
    public func start() throws -> URL {
        let server = HTTPServer(host: "127.0.0.1", port: 0) { [weak self] request in
            guard let self else { return .dropConnection }
            return await self.answer(request)
        }
        let port = try server.start()
        withLock {
            self.server = server
            self.port = port
        }
        return baseURL!
    }

    /// Stops serving.
    public func stop() {
        let server = withLock { () -> HTTPServer? in
            defer { self.server = nil; port = nil }
            return self.server
        }
        server?.stop()
    }

    /// `http://127.0.0.1:<port>/v2/cdn` while running.
    public var baseURL: URL? {
        withLock { port.map { URL(string: "http://127.0.0.1:\($0)\(Self.basePath)")! } }
    }

    /// The space's cache version (`space.version`); requests with another `cv` are redirected.
    public var spaceVersion: Int {
        get { withLock { settings.spaceVersion } }
        set { withLock { settings.spaceVersion = newValue } }
    }

    /// How long every answer waits (network and server time).
    public var latency: Duration {
        get { withLock { settings.latency } }
        set { withLock { settings.latency = newValue } }
    }

    /// A fault every request gets while set (the API is down); nil (the default) answers normally.
    public var outage: FakeFault? {
        get { withLock { settings.outage } }
        set { withLock { settings.outage = newValue } }
    }

    /// Publishes `published`: each replaces the story with its UUID, or is added at the end.
    /// The space's version goes up by one, as after a publish.
    public func publish(_ published: [Story]) {
        change { stories in
            for story in published {
                if let position = stories.firstIndex(where: { $0.uuid == story.uuid }) {
                    stories[position] = story
                } else {
                    stories.append(story)
                }
            }
        }
    }

    /// Removes the story `uuid`, as deleting (or, for published content, unpublishing) it
    /// does; the space's version goes up by one.
    public func delete(uuid: String) {
        change { $0.removeAll { $0.uuid == uuid } }
    }

    /// The story `uuid` as the fake serves it now.
    public func story(uuid: String) -> Story? {
        withLock { stories.first { $0.uuid == uuid } }
    }

    private func change(_ edit: (inout [Story]) -> Void) {
        withLock {
            edit(&stories)
            catalog = FakeCatalog(stories)
            settings.spaceVersion += 1
        }
    }

    /// Whether requests beyond the documented rate limits get 429 (default true).
    public var enforcesRateLimits: Bool {
        get { withLock { settings.enforcesRateLimits } }
        set { withLock { settings.enforcesRateLimits = newValue } }
    }

    /// Makes responses that include the story `uuid` also include these stories in `rels`, as
    /// when relations are resolved.
    public func relate(_ uuid: String, to related: [String]) {
        withLock { settings.relations[uuid] = related }
    }

    /// Makes the next `times` requests (to endpoints starting with `endpointPrefix`, when
    /// given) fail with `fault`.
    public func inject(_ fault: FakeFault, times: Int = 1, endpointPrefix: String? = nil) {
        withLock { faults += Array(repeating: (fault, endpointPrefix), count: times) }
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] {
        withLock { log }
    }

    /// The requests to endpoints starting with `endpointPrefix` (`stories`, `spaces/me`).
    public func requests(to endpointPrefix: String) -> [RecordedRequest] {
        withLock { log.filter { $0.endpoint.hasPrefix(endpointPrefix) } }
    }

    /// Forgets the requests received so far (those still waiting to be answered included).
    public func resetLog() {
        withLock {
            forgotten += log.count
            log.removeAll()
        }
    }

    private func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Records the request, applies any fault, the rate limit and the latency, then answers.
    private func answer(_ request: HTTPRequest) async -> HTTPResponse {
        let arrival = ContinuousClock.now
        let prefix = Self.basePath + "/"
        guard request.path.hasPrefix(prefix) else {
            return HTTPResponse(status: 404, text: #"{"error":"Not Found"}"#, contentType: "application/json")
        }
        let endpoint = PercentDecoding.decode(request.path.dropFirst(prefix.count))
        var query: [String: String] = [:]
        for item in request.queryItems { query[item.name] = item.value }
        let perPage = FakeCatalog.entriesPerResponse(endpoint: endpoint, query: query)

        let (fault, admitted, settings, catalog, port, logIndex) = withLock { () -> (FakeFault?, Bool, Settings, FakeCatalog, Int, Int) in
            var fault = self.settings.outage
            if fault == nil, let position = faults.firstIndex(where: { endpoint.hasPrefix($0.endpointPrefix ?? "") }) {
                fault = faults.remove(at: position).fault
            }
            let admitted = !self.settings.enforcesRateLimits || window.admit(perPage: perPage, now: arrival)
            log.append(RecordedRequest(endpoint: endpoint, query: query, status: nil, fault: fault))
            return (fault, admitted, self.settings, self.catalog, self.port ?? 0, forgotten + log.count - 1)
        }

        var response: HTTPResponse
        switch fault {
        case .serverError?:
            response = HTTPResponse(status: 500, text: #"{"error":"Internal Server Error"}"#, contentType: "application/json")
        case .tooManyRequests(let seconds)?:
            response = Self.tooManyRequests(retryAfter: seconds)
        default:
            if !admitted {
                response = Self.tooManyRequests(retryAfter: 1)
            } else {
                response = route(
                    endpoint: endpoint, query: query, rawQuery: request.query ?? "", path: request.path, settings: settings,
                    catalog: catalog, port: port)
            }
        }

        var delay = settings.latency
        if case .slow(let extra)? = fault { delay += extra }
        if delay > .zero { try? await Task.sleep(for: delay) }

        if fault == .droppedConnection {
            response = .dropConnection
        } else if fault == .truncatedBody, case .bytes(let bytes) = response.body {
            let half = Array(bytes.prefix(bytes.count / 2))
            let chunks = AsyncThrowingStream<[UInt8], any Error> { continuation in
                continuation.yield(half)
                continuation.finish(throwing: CancellationError())
            }
            response.body = .stream(chunks, length: bytes.count)
        }
        let status = fault == .droppedConnection ? 0 : response.status
        withLock {
            let position = logIndex - forgotten
            if position >= 0 { log[position].status = status }
        }
        return response
    }

    private func route(
        endpoint: String, query: [String: String], rawQuery: String, path: String, settings: Settings, catalog: FakeCatalog, port: Int
    ) -> HTTPResponse {
        let token = query["token"] ?? ""
        let draft = query["version"] == "draft"
        guard token == previewToken || (token == publicToken && !draft) else {
            return HTTPResponse(status: 401, text: #"{"error":"Unauthorized"}"#, contentType: "application/json")
        }
        if let cv = query["cv"], cv != String(settings.spaceVersion) {
            let current = rawQuery.split(separator: "&").map { $0.hasPrefix("cv=") ? "cv=\(settings.spaceVersion)" : String($0) }
            let location = "http://127.0.0.1:\(port)\(path)?\(current.joined(separator: "&"))"
            return HTTPResponse(status: 301, headers: [HTTPHeader("Location", location)], text: "")
        }
        let answer = catalog.answer(endpoint: endpoint, query: query, spaceVersion: settings.spaceVersion, relations: settings.relations)
        var headers = [HTTPHeader("Content-Type", "application/json")]
        if let total = answer.total {
            headers += [HTTPHeader("Total", String(total)), HTTPHeader("Per-Page", String(answer.perPage))]
        }
        return HTTPResponse(status: answer.status, headers: headers, bytes: answer.body)
    }

    private static func tooManyRequests(retryAfter seconds: Int) -> HTTPResponse {
        HTTPResponse(
            status: 429, headers: [HTTPHeader("Retry-After", String(seconds))],
            text: #"{"error":"Too Many Requests"}"#, contentType: "application/json")
    }
}
