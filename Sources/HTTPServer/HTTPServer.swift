import CMicroHTTPD
import Foundation

/// A small HTTP/1.1 server over libmicrohttpd (opened when a server first starts; see
/// ``LibMicroHTTPD``), for the preview and for tests (a fake content API). One internal thread
/// polls every connection (epoll on Linux); the handler runs as a Swift task per request while
/// its connection is suspended, so slow answers and open streams never block other requests.
///
/// ```swift
/// let server = HTTPServer(host: "127.0.0.1", port: 0) { request in
///     HTTPResponse(text: "hello \(request.path)")
/// }
/// let port = try server.start()
/// defer { server.stop() }
/// ```
public final class HTTPServer: @unchecked Sendable {
    /// Answers one request.
    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    /// The address it listens on (`127.0.0.1`, `::1`).
    public let host: String
    /// The idle timeout, connection limit and allowed `Host` names (``host`` among them).
    public let limits: ServerLimits
    private let requestedPort: Int
    private let handler: Handler
    private let lock = NSLock()
    private var running: (daemon: OpaquePointer, core: Unmanaged<ServerCore>, port: Int)?

    /// A server for `host` (a numeric IPv4 or IPv6 address, or `localhost` for 127.0.0.1) and
    /// `port` (0: any free port, see ``port``), within `limits`; `host` is added to the allowed
    /// `Host` names. It listens only once started.
    public init(host: String = "127.0.0.1", port: Int = 0, limits: ServerLimits = ServerLimits(), handler: @escaping Handler) {
        self.host = host
        var limits = limits
        limits.allowedHosts.add(host)
        self.limits = limits
        self.requestedPort = port
        self.handler = handler
    }

    deinit {
        stop()
    }

    /// The port it listens on while running; nil when stopped.
    public var port: Int? {
        lock.lock()
        defer { lock.unlock() }
        return running?.port
    }

    /// The connections open now; 0 when stopped.
    var openConnections: Int {
        lock.lock()
        defer { lock.unlock() }
        return running?.core.takeUnretainedValue().openConnections ?? 0
    }

    /// Starts listening and returns the port (the one picked when ``init(host:port:handler:)``
    /// was given 0). Starting a running server does nothing.
    @discardableResult
    public func start() throws(HTTPServerError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if let running { return running.port }
        guard (0...65535).contains(requestedPort) else { throw .invalidPort(requestedPort) }
        let address = try SocketAddress(host: host, port: UInt16(requestedPort))
        let library = try LibMicroHTTPD.shared.get()
        let core = Unmanaged.passRetained(ServerCore(handler: handler, limits: limits, library: library))
        var flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        errno = 0
        let daemon = address.withSockaddr { sockaddr in
            storysite_mhd_start_daemon(
                library.functions, flags, sockaddr, DaemonCallbacks.access, core.toOpaque(), DaemonCallbacks.logURI, nil,
                DaemonCallbacks.completed, nil, DaemonCallbacks.connectionNotified, core.toOpaque(),
                limits.idleTimeoutSeconds, UInt32(clamping: limits.connectionLimit + limits.refusalMargin))
        }
        guard let daemon else {
            let reason = errno == 0 ? "the address may be in use or not on this machine" : String(cString: strerror(errno))
            core.release()
            throw .cannotListen(host: host, port: requestedPort, reason: reason)
        }
        let port = Int(storysite_mhd_bound_port(library.functions, daemon))
        running = (daemon, core, port)
        return port
    }

    /// Stops listening and closes every connection (open streams are cancelled, running
    /// handlers are cancelled and their answers dropped). It can be started again.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard let (daemon, core, _) = running else { return }
        running = nil
        core.takeUnretainedValue().beginStopping()
        storysite_mhd_stop_daemon(core.takeUnretainedValue().library.functions, daemon)
        core.release()
    }
}
