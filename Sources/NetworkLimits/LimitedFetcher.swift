import CCurl
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests with libcurl under ``NetworkLimits``: each attempt's connection and headers
/// within the headers timeout, everything within the request's ``RequestDeadline``, and the
/// body counted as libcurl decodes it (gzip, deflate), so an endless body or a gzip bomb stops
/// at the limit. libcurl hands over each piece as it reads it and reads no more until it is
/// taken, so what a server sends past the limit is never held in memory. Redirects are
/// followed; no cache, no cookies. Each transfer runs on a thread of its own, never on the
/// cooperative pool; finished handles are kept for reuse, with their open connections.
public final class LimitedFetcher: Sendable {
    /// A complete response: the status and headers, and the body when it was read.
    public struct Response: Sendable {
        public var http: HTTPURLResponse
        public var body: Data
    }

    private let headers: [String: String]
    private let handles = HandlePool()

    /// A fetcher whose requests carry `headers` (a `User-Agent`).
    public init(headers: [String: String] = [:]) {
        self.headers = headers
    }

    /// Sends `request` once, as one attempt of the request `deadline` bounds. With `readingBody`
    /// false it returns as soon as the status and headers are in and reads none of the body.
    public func fetch(_ request: URLRequest, readingBody: Bool, within deadline: RequestDeadline) async throws(FetchFailure) -> Response {
        let remaining = deadline.remaining
        guard remaining > .zero, let url = request.url else { throw .deadlinePassed(deadline.limits.deadline) }
        let transfer = Transfer(
            url: url, method: request.httpMethod ?? "GET", headers: headers.merging(request.allHTTPHeaderFields ?? [:]) { $1 },
            readingBody: readingBody, deadline: deadline)
        let handles = handles
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread {
                    let handle = handles.take()
                    let result = transfer.perform(on: handle)
                    handles.give(back: handle)
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
    private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    private static let kept = 16
    private let lock = NSLock()
    private var idle: [UnsafeMutableRawPointer] = []

    deinit {
        for handle in idle { curl_easy_cleanup(handle) }
    }

    func take() -> UnsafeMutableRawPointer? {
        _ = Self.initialised
        if let handle = lock.withLock({ idle.popLast() }) {
            curl_easy_reset(handle)
            return handle
        }
        return curl_easy_init()
    }

    func give(back handle: UnsafeMutableRawPointer?) {
        guard let handle else { return }
        let kept = lock.withLock { () -> Bool in
            guard idle.count < Self.kept else { return false }
            idle.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(handle) }
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

    func perform(on handle: UnsafeMutableRawPointer?) -> Result<LimitedFetcher.Response, FetchFailure> {
        guard let handle else { return .failure(.transport(.unknown)) }
        let remaining = deadline.remaining
        let limits = deadline.limits
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
        defer { curl_slist_free_all(list) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        storysite_curl_set_string(handle, CURLOPT_URL, url.absoluteString)
        if method == "HEAD" {
            storysite_curl_set_long(handle, CURLOPT_NOBODY, 1)
        } else if method != "GET" {
            storysite_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method)
        }
        storysite_curl_set_headers(handle, list)
        storysite_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        storysite_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        storysite_curl_set_long(handle, CURLOPT_MAXREDIRS, 10)
        storysite_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes
        storysite_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(remaining))
        storysite_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(min(limits.headersTimeout, remaining)))
        storysite_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
        storysite_curl_set_progress(handle, Self.progress)
        storysite_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context)
        storysite_curl_set_write(handle, CURLOPT_HEADERFUNCTION, Self.header)
        storysite_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
        storysite_curl_set_write(handle, CURLOPT_WRITEFUNCTION, Self.write)
        storysite_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        let code = curl_easy_perform(handle)
        return lock.withLock { result(code, remaining: remaining) }
    }

    /// The outcome, from libcurl's code and what the callbacks saw. Call with the lock held.
    private func result(_ code: CURLcode, remaining: Duration) -> Result<LimitedFetcher.Response, FetchFailure> {
        if case .failure(let failure) = stop { return .failure(failure) }
        if code == CURLE_OK || stop != nil {
            guard status > 0, let http = HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: headerFields) else {
                return .failure(.notHTTP)
            }
            return .success(LimitedFetcher.Response(http: http, body: body))
        }
        if code == CURLE_OPERATION_TIMEDOUT {
            let elapsed = ContinuousClock.now - started
            if !headersComplete, elapsed < remaining, deadline.limits.headersTimeout < remaining {
                return .failure(.headersTimedOut(deadline.limits.headersTimeout))
            }
            return .failure(.deadlinePassed(deadline.limits.deadline))
        }
        return .failure(.transport(Self.urlErrorCode(code)))
    }

    /// libcurl's codes in URLError's terms, which say which failures may pass.
    private static func urlErrorCode(_ code: CURLcode) -> URLError.Code {
        switch code {
        case CURLE_COULDNT_CONNECT: return .cannotConnectToHost
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotFindHost
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: return .networkConnectionLost
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE:
            return .secureConnectionFailed
        case CURLE_TOO_MANY_REDIRECTS: return .httpTooManyRedirects
        case CURLE_BAD_CONTENT_ENCODING, CURLE_WEIRD_SERVER_REPLY: return .cannotParseResponse
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
                let name = String(line[..<colon])
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                transfer.headerFields[name] = transfer.headerFields[name].map { $0 + ", " + value } ?? value
            } else if line.isEmpty {
                let interim = (100..<200).contains(transfer.status)
                let redirected = (300..<400).contains(transfer.status) && transfer.headerFields.keys.contains { $0.lowercased() == "location" }
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
