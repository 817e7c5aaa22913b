/// What an external URL answered.
public enum ExternalLinkStatus: Sendable, Hashable, CustomStringConvertible {
    /// A success or redirect status.
    case reachable
    /// An error status, or no response after the retries.
    case broken(String)
    /// HTTP 429: the host asked for fewer requests, so the link's state is unknown.
    case rateLimited
    /// Not requested, for the reason given (no host name resolves here): counted, not a finding.
    case unchecked(String)

    /// The finding's severity: nil when the link works.
    public var severity: Finding.Severity? {
        switch self {
        case .reachable, .unchecked: return nil
        case .broken: return .broken
        case .rateLimited: return .warning
        }
    }

    public var description: String {
        switch self {
        case .reachable: return "reachable"
        case .broken(let reason): return reason
        case .rateLimited: return "rate limited (HTTP 429); not checked"
        case .unchecked(let reason): return reason
        }
    }
}
