/// Why a server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host is not a numeric IPv4 or IPv6 address (or `localhost`).
    case invalidHost(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// The daemon did not start: the address may be in use or not on this machine.
    case cannotListen(host: String, port: Int, reason: String)
    /// libmicrohttpd could not be opened (see ``LibMicroHTTPD``); why.
    case unavailable(String)

    public var description: String {
        switch self {
        case .invalidHost(let host):
            return "cannot listen on '\(host)': give a numeric IP address such as 127.0.0.1 or ::1"
        case .invalidPort(let port):
            return "cannot listen on port \(port): give a port from 0 (any free port) to 65535"
        case .cannotListen(let host, let port, let reason):
            let shown = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            return "cannot listen on \(shown): \(reason)"
        case .unavailable(let reason):
            return "cannot serve: \(reason); install the package libmicrohttpd12"
        }
    }
}
