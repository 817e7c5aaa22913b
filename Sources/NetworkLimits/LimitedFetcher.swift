import CCurl
import Foundation

/// Sends requests with libcurl under ``NetworkLimits``: each attempt's connection and headers
/// within the headers timeout, everything within the request's ``RequestDeadline``, and the
/// body counted as libcurl decodes it (gzip, deflate), so an endless body or a gzip bomb stops
/// at the limit. libcurl hands over each piece as it reads it and reads no more until it is
/// taken, so what a server sends past the limit is never held in memory. Redirects are
/// followed; no cache, no cookies. Each transfer runs on a thread of its own, never on the
/// cooperative pool; finished handles are kept for reuse, with their open connections.
/// libcurl is opened when the first request is sent (``Libcurl``).
public final class LimitedFetcher: Sendable {
    /// A request: its URL, method and headers.
    public struct Request: Sendable {
        public var url: URL
        public var method: String
        public var headers: [String: String]

        public init(url: URL, method: String = "GET", headers: [String: String] = [:]) {
            self.url = url
            self.method = method
            self.headers = headers
        }
    }

    /// A complete response: the final status and headers, and the body when it was read.
    public struct Response: Sendable {
        public var status: Int
        /// The headers by name in lowercase (HTTP's names are not case-sensitive); a name that
        /// came more than once holds every value, joined by `, `.
        public var headers: [String: String]
        public var body: Data

        /// The value of the header `name`, whatever its case; nil when there is none.
        public func header(_ name: String) -> String? {
            headers[name.lowercased()]
        }
    }

    private let headers: [String: String]
    private let handles = HandlePool()

    /// A fetcher whose requests carry `headers` (a `User-Agent`).
    public init(headers: [String: String] = [:]) {
        self.headers = headers
    }

    /// Sends `request` once, as one attempt of the request `deadline` bounds. With `readingBody`
    /// false it returns as soon as the status and headers are in and reads none of the body.
    public func fetch(_ request: Request, readingBody: Bool, within deadline: RequestDeadline) async throws(FetchFailure) -> Response {
        let curl = try Libcurl.shared.get()
        guard deadline.remaining > .zero else { throw .deadlinePassed(deadline.limits.deadline) }
        let transfer = Transfer(
            url: request.url, method: request.method, headers: headers.merging(request.headers) { $1 },
            readingBody: readingBody, deadline: deadline)
        let handles = handles
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread {
                    let handle = handles.take(from: curl)
                    let result = transfer.perform(on: handle, of: curl)
                    handles.give(back: handle, to: curl)
                    continuation.resume(returning: result)
                }.start()
            }
        } onCancel: {
            transfer.cancel()
        }
        return try result.get()
    }
}

/// Idle easy handles, kept so that later requests reuse their connections.
private final class HandlePool: @unchecked Sendable {
    private static let kept = 16
    private let lock = NSLock()
    private var idle: [UnsafeMutableRawPointer] = []

    deinit {
        // A handle was only ever made once libcurl was open.
        guard !idle.isEmpty, case .success(let curl) = Libcurl.shared else { return }
        for handle in idle { storysite_curl_easy_cleanup(curl.functions, handle) }
    }

    func take(from curl: Libcurl) -> UnsafeMutableRawPointer? {
        if let handle = lock.withLock({ idle.popLast() }) {
            storysite_curl_easy_reset(curl.functions, handle)
            return handle
        }
        return storysite_curl_easy_init(curl.functions)
    }

    func give(back handle: UnsafeMutableRawPointer?, to curl: Libcurl) {
        guard let handle else { return }
        let kept = lock.withLock { () -> Bool in
            guard idle.count < Self.kept else { return false }
            idle.append(handle)
            return true
        }
        if !kept { storysite_curl_easy_cleanup(curl.functions, handle) }
    }
}

/// One attempt: its options, what has arrived, and why it stopped, shared with libcurl's
/// callbacks on the transfer's thread (and with ``cancel()`` from another).
private final class Transfer: @unchecked Sendable {
    private let url: URL
    private let method: String
    private let headers: [String: String]
    private let readingBody: Bool
    private let deadline: RequestDeadline
    private let started = ContinuousClock.now
    private let lock = NSLock()
    private var cancelled = false
    /// Why a callback stopped the transfer.
    private var stop: Result<Void, FetchFailure>?
    private var status = 0
    private var headerFields: [String: String] = [:]
    private var headersComplete = false
    private var body = Data()

    init(url: URL, method: String, headers: [String: String], readingBody: Bool, deadline: RequestDeadline) {
        self.url = url
        self.method = method
        self.headers = headers
        self.readingBody = readingBody
        self.deadline = deadline
    }

    func cancel() {
        lock.withLock { cancelled = true }
    }

    func perform(on handle: UnsafeMutableRawPointer?, of curl: Libcurl) -> Result<LimitedFetcher.Response, FetchFailure> {
        guard let handle else { return .failure(.transport(.unknown)) }
        let remaining = deadline.remaining
        let limits = deadline.limits
        var list: UnsafeMutablePointer<curl_slist>?
        let functions = curl.functions
        for (name, value) in headers { list = storysite_curl_slist_append(functions, list, "\(name): \(value)") }
        defer { storysite_curl_slist_free_all(functions, list) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        storysite_curl_set_string(functions, handle, CURLOPT_URL, url.absoluteString)
        if method == "HEAD" {
            storysite_curl_set_long(functions, handle, CURLOPT_NOBODY, 1)
        } else if method != "GET" {
            storysite_curl_set_string(functions, handle, CURLOPT_CUSTOMREQUEST, method)
        }
        storysite_curl_set_headers(functions, handle, list)
        storysite_curl_set_long(functions, handle, CURLOPT_NOSIGNAL, 1)
        storysite_curl_set_long(functions, handle, CURLOPT_FOLLOWLOCATION, 1)
        storysite_curl_set_long(functions, handle, CURLOPT_MAXREDIRS, 10)
        storysite_curl_set_string(functions, handle, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes
        storysite_curl_set_long(functions, handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(remaining))
        storysite_curl_set_long(functions, handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(min(limits.headersTimeout, remaining)))
        storysite_curl_set_long(functions, handle, CURLOPT_NOPROGRESS, 0)
        storysite_curl_set_progress(functions, handle, Self.progress)
        storysite_curl_set_pointer(functions, handle, CURLOPT_XFERINFODATA, context)
        storysite_curl_set_write(functions, handle, CURLOPT_HEADERFUNCTION, Self.header)
        storysite_curl_set_pointer(functions, handle, CURLOPT_HEADERDATA, context)
        storysite_curl_set_write(functions, handle, CURLOPT_WRITEFUNCTION, Self.write)
        storysite_curl_set_pointer(functions, handle, CURLOPT_WRITEDATA, context)
        let code = storysite_curl_easy_perform(functions, handle)
        return lock.withLock { result(code, remaining: remaining) }
    }

    /// The outcome, from libcurl's code and what the callbacks saw. Call with the lock held.
    private func result(_ code: CURLcode, remaining: Duration) -> Result<LimitedFetcher.Response, FetchFailure> {
        if case .failure(let failure) = stop { return .failure(failure) }
        if code == CURLE_OK || stop != nil {
            guard status > 0 else { return .failure(.notHTTP) }
            return .success(LimitedFetcher.Response(status: status, headers: headerFields, body: body))
        }
        if code == CURLE_OPERATION_TIMEDOUT {
            let elapsed = ContinuousClock.now - started
            if !headersComplete, elapsed < remaining, deadline.limits.headersTimeout < remaining {
                return .failure(.headersTimedOut(deadline.limits.headersTimeout))
            }
            return .failure(.deadlinePassed(deadline.limits.deadline))
        }
        return .failure(.transport(Self.transportFailure(code)))
    }

    /// How a connection failed, by libcurl's code.
    private static func transportFailure(_ code: CURLcode) -> TransportFailure {
        switch code {
        case CURLE_COULDNT_CONNECT: return .cannotConnect
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotFindHost
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: return .connectionLost
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE:
            return .secureConnectionFailed
        case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects
        case CURLE_BAD_CONTENT_ENCODING, CURLE_WEIRD_SERVER_REPLY: return .malformedAnswer
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: return .unsupportedURL
        default: return .unknown
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    private static func transfer(_ context: UnsafeMutableRawPointer?) -> Transfer {
        Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Stops the transfer when cancelled, or when the headers are late.
    private static let progress: curl_xferinfo_callback = { context, _, _, _, _ in
        let transfer = transfer(context)
        return transfer.lock.withLock { () -> Int32 in
            if transfer.cancelled {
                transfer.stop = .failure(.cancelled)
                return 1
            }
            let limits = transfer.deadline.limits
            if !transfer.headersComplete, ContinuousClock.now - transfer.started >= limits.headersTimeout {
                transfer.stop = .failure(.headersTimedOut(limits.headersTimeout))
                return 1
            }
            return 0
        }
    }

    /// One header line. A status line starts a response (an interim one or a redirect's, which
    /// the next replaces); the blank line ends its headers. Without `readingBody`, the final
    /// response's blank line stops the transfer.
    private static let header: curl_write_callback = { buffer, size, count, context in
        let length = size * count
        guard let buffer else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let transfer = transfer(context)
        return transfer.lock.withLock { () -> Int in
            if line.hasPrefix("HTTP/") {
                let parts = line.split(separator: " ")
                transfer.status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
                transfer.headerFields = [:]
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                transfer.headerFields[name] = transfer.headerFields[name].map { $0 + ", " + value } ?? value
            } else if line.isEmpty {
                let interim = (100..<200).contains(transfer.status)
                let redirected = (300..<400).contains(transfer.status) && transfer.headerFields["location"] != nil
                if !interim, !redirected {
                    transfer.headersComplete = true
                    if !transfer.readingBody {
                        transfer.stop = .success(())
                        return 0
                    }
                }
            }
            return length
        }
    }

    /// A piece of the decoded body; past the size limit it stops the transfer.
    private static let write: curl_write_callback = { buffer, size, count, context in
        let length = size * count
        let transfer = transfer(context)
        return transfer.lock.withLock { () -> Int in
            guard transfer.readingBody else {
                transfer.stop = .success(())
                return 0
            }
            guard transfer.body.count + length <= transfer.deadline.limits.maximumBodySize else {
                transfer.stop = .failure(.bodyTooLarge(limit: transfer.deadline.limits.maximumBodySize))
                transfer.body = Data()
                return 0
            }
            if let buffer { transfer.body.append(UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: length) }
            return length
        }
    }
}
