import Foundation

/// The names a `Host` header may give for the server to answer: a host name or address, with
/// or without a port, compared without regard to case (`localhost`, `LOCALHOST:8080`,
/// `127.0.0.1:80`, `[::1]:8080`). A request without a `Host` header (HTTP/1.0) is answered:
/// a browser always sends one.
public struct HostAllowList: Sendable, Equatable, CustomStringConvertible {
    /// The allowed hosts, lowercased, IPv6 addresses without brackets.
    public private(set) var hosts: [String]
    /// Whether every host is allowed: a server listening on every address (`0.0.0.0`, `::`)
    /// was put on the network on purpose, under whatever names reach it.
    public private(set) var allowsAny = false

    public init(_ hosts: [String]) {
        self.hosts = []
        for host in hosts { add(host) }
    }

    /// The addresses that mean "every address of this machine".
    static let wildcards: Set<String> = ["0.0.0.0", "::", "[::]"]

    /// `localhost`, `127.0.0.1` and `::1`.
    public static let loopback = HostAllowList(["localhost", "127.0.0.1", "::1"])

    /// Adds `host` (`192.168.1.5`, `::1`, `[fe80::1]`, `preview.test`) unless it is there; a
    /// wildcard address (`0.0.0.0`, `::`) allows every host.
    public mutating func add(_ host: String) {
        if Self.wildcards.contains(host) { allowsAny = true }
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if !host.isEmpty, !hosts.contains(host) { hosts.append(host) }
    }

    /// Whether a request with this `Host` header value (nil: none) is answered.
    public func allows(_ header: String?) -> Bool {
        guard let header, !allowsAny else { return true }
        guard let host = Self.host(of: header) else { return false }
        return hosts.contains(host)
    }

    /// `localhost, 127.0.0.1, [::1]`.
    public var description: String {
        if allowsAny { return "any host" }
        return hosts.map { $0.contains(":") ? "[\($0)]" : $0 }.joined(separator: ", ")
    }

    /// The host of a `Host` value, lowercased, without port, brackets or a final dot; nil when
    /// malformed.
    private static func host(of header: String) -> String? {
        var value = Substring(header.trimmingCharacters(in: [" ", "\t"]).lowercased())
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            let rest = value[value.index(after: close)...]
            guard rest.isEmpty || Self.isPort(rest) else { return nil }
            return String(value[value.index(after: value.startIndex)..<close])
        }
        if let colon = value.firstIndex(of: ":") {
            guard Self.isPort(value[colon...]) else { return nil }
            value = value[..<colon]
        }
        if value.hasSuffix(".") { value = value.dropLast() }
        return value.isEmpty ? nil : String(value)
    }

    /// `:8080`.
    private static func isPort(_ text: Substring) -> Bool {
        text.first == ":" && text.count > 1 && text.count <= 6 && text.dropFirst().allSatisfy(\.isASCII) && text.dropFirst().allSatisfy(\.isNumber)
    }
}
