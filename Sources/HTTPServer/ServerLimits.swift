/// What the server puts up with from clients:
///
/// - a connection that sends nothing for ``idleTimeout`` (a request half sent, an idle
///   keep-alive) is closed; a connection waiting for its handler or streaming is not idle;
/// - at most ``connectionLimit`` connections are served at once; requests on the few above it
///   are answered 503 with a short message and closed, and past those MHD refuses the
///   connection as it accepts it;
/// - only requests whose `Host` header names one of ``allowedHosts`` are answered, so a page
///   on another site that rebinds its name to this address cannot read what is served; the
///   others get 421 and a short message.
public struct ServerLimits: Sendable {
    public var idleTimeout: Duration
    public var connectionLimit: Int
    public var allowedHosts: HostAllowList

    public init(idleTimeout: Duration = .seconds(10), connectionLimit: Int = 256, allowedHosts: HostAllowList = .loopback) {
        self.idleTimeout = idleTimeout
        self.connectionLimit = max(1, connectionLimit)
        self.allowedHosts = allowedHosts
    }

    /// Connections above ``connectionLimit`` that still get a 503 rather than a closed socket.
    var refusalMargin: Int { max(4, connectionLimit / 8) }

    /// The idle timeout in whole seconds, as MHD takes it (at least one).
    var idleTimeoutSeconds: UInt32 {
        let (seconds, attoseconds) = idleTimeout.components
        return UInt32(clamping: max(1, seconds + (attoseconds > 0 ? 1 : 0)))
    }
}
