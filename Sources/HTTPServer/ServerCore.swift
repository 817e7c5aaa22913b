import CMicroHTTPD
import Foundation

/// The state one running daemon shares between MHD's polling thread and the tasks that answer
/// requests: the handler, which connections are suspended, and whether the server is stopping.
///
/// One lock guards it all, including every ``RequestContext`` and ``StreamPump`` of the daemon.
/// A connection is suspended only under the lock, and resumed only by whoever removes it from
/// ``suspended``, so MHD never sees a resume without a suspend, and `stop()` can resume every
/// suspended connection before stopping the daemon (MHD forbids stopping with any suspended).
final class ServerCore: @unchecked Sendable {
    let handler: HTTPServer.Handler
    let limits: ServerLimits
    /// The libmicrohttpd the daemon runs on.
    let library: LibMicroHTTPD
    private let lock = NSLock()
    private var suspended: Set<ConnectionHandle> = []
    private(set) var isStopping = false
    /// Connections open now (MHD tells of each opened and closed).
    private var opened = 0

    init(handler: @escaping HTTPServer.Handler, limits: ServerLimits, library: LibMicroHTTPD) {
        self.handler = handler
        self.limits = limits
        self.library = library
    }

    /// Counts a connection opened (+1) or closed (-1).
    func countConnection(_ change: Int) {
        withLock { opened += change }
    }

    /// The connections open now.
    var openConnections: Int { withLock { opened } }

    /// The answer to a request that is not served: a `Host` not allowed (421), or more
    /// connections open than the limit (503); nil to serve it.
    func refusal(host: String?) -> HTTPResponse? {
        guard limits.allowedHosts.allows(host) else {
            return HTTPResponse(
                status: 421, headers: [HTTPHeader("Connection", "close")],
                text: "421 Misdirected Request: this server answers only for \(limits.allowedHosts) (start it with --host to add an address)\n")
        }
        let open = openConnections
        guard open <= limits.connectionLimit else {
            return HTTPResponse(
                status: 503, headers: [HTTPHeader("Connection", "close"), HTTPHeader("Retry-After", "\(limits.idleTimeoutSeconds)")],
                text: "503 Service Unavailable: \(open) connections are open, more than the limit of \(limits.connectionLimit); try again shortly\n")
        }
        return nil
    }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Suspends `connection`. Call with the lock held, from an MHD callback for that connection.
    /// Returns false when the server is stopping (the caller then ends the connection).
    func suspendLocked(_ connection: ConnectionHandle) -> Bool {
        guard !isStopping else { return false }
        suspended.insert(connection)
        storysite_mhd_suspend_connection(library.functions, connection.pointer)
        return true
    }

    /// Removes `connection` from the suspended set. Call with the lock held; when it returns
    /// true, call ``resume(_:)`` after releasing the lock.
    func takeSuspendedLocked(_ connection: ConnectionHandle) -> Bool {
        suspended.remove(connection) != nil
    }

    /// Resumes a connection taken with ``takeSuspendedLocked(_:)``.
    func resume(_ connection: ConnectionHandle) {
        storysite_mhd_resume_connection(library.functions, connection.pointer)
    }

    /// Marks the server as stopping and resumes every suspended connection; their callbacks then
    /// end them. Call before the daemon is stopped.
    func beginStopping() {
        let connections = withLock {
            isStopping = true
            defer { suspended.removeAll() }
            return suspended
        }
        for connection in connections { storysite_mhd_resume_connection(library.functions, connection.pointer) }
    }
}
