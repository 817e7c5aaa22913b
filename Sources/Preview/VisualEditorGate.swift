import Foundation
import HTTPServer

/// Who may call the Visual Editor's endpoints: the handler script on a page this preview
/// served, and nothing else. A request is admitted only when it
/// - is a `POST` with a JSON body (`Content-Type: application/json`, which a cross-site form
///   cannot send and a cross-site script cannot send without a preflight, which gets 403);
/// - carries the handler's token (`X-Storysite-Editor-Token`), random for each process, which
///   only a page from this preview holds;
/// - comes from the page's own origin (`Origin` is `http://` and the `Host` header), and that
///   host is a loopback name or the address listened on (a page that rebinds its own name to
///   this machine has neither).
struct VisualEditorGate: Sendable {
    static let tokenHeader = "X-Storysite-Editor-Token"

    let token: String
    /// The host names a request's `Host` may have; nil when listening on every address.
    private let hosts: Set<String>?

    init(token: String, host: String) {
        self.token = token
        let listened = host.contains(":") ? "[\(host.lowercased())]" : host.lowercased()
        hosts = ["0.0.0.0", "[::]"].contains(listened) ? nil : ["localhost", "127.0.0.1", "[::1]", listened]
    }

    /// A fresh token: 32 random bytes in hex.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
    }

    func admits(_ request: HTTPRequest) -> Bool {
        guard request.method == "POST",
              let type = request.header("Content-Type"),
              type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/json",
              let sent = request.header(Self.tokenHeader), Self.equalInConstantTime(sent, token),
              let host = request.header("Host")?.lowercased(), let origin = request.header("Origin")?.lowercased(),
              origin == "http://" + host
        else { return false }
        guard let hosts else { return true }
        return hosts.contains(Self.name(ofHost: host))
    }

    /// `localhost:8080` → `localhost`; `[::1]:8080` → `[::1]`.
    private static func name(ofHost host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        return String(host.prefix { $0 != ":" })
    }

    /// Whether `a` and `b` are equal, in a time that does not depend on where they differ.
    private static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
