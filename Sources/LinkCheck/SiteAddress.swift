import Foundation

/// The site's own public address (such as `https://example.com/docs/`): absolute links to it
/// are checked against the folder like internal ones, the folder being served at its path.
struct SiteAddress: Sendable {
    /// `scheme://host[:port]`, lowercased.
    private let origin: [UInt8]
    /// The path the folder is served at, without a trailing `/` (empty for the host root).
    private let path: [UInt8]

    init?(_ url: URL) {
        guard let scheme = url.scheme, let host = url.host, !host.isEmpty else { return nil }
        let port = url.port.map { ":\($0)" } ?? ""
        origin = Array("\(scheme)://\(host)\(port)".lowercased().utf8)
        var path = Array(url.path.utf8)
        while path.last == UInt8(ascii: "/") { path.removeLast() }
        self.path = path
    }

    /// The link as a root-relative one (`/about/#team`) when it points into the site.
    func rootRelative(_ link: [UInt8]) -> [UInt8]? {
        guard link.count >= origin.count, link.prefix(origin.count).map({ Self.lowercased($0) }).elementsEqual(origin) else {
            return nil
        }
        var rest = link[origin.count...]
        guard Self.endsComponent(rest), rest.starts(with: path) else { return nil }
        rest = rest.dropFirst(path.count)
        guard Self.endsComponent(rest) else { return nil }
        return rest.first == UInt8(ascii: "/") ? Array(rest) : [UInt8(ascii: "/")] + rest
    }

    /// A root-relative link (`/docs/about/`) made relative to the folder's root, when the site is
    /// served below a path (`https://example.com/docs/`) and the link points into it.
    func withinSitePath(_ link: [UInt8]) -> [UInt8]? {
        guard !path.isEmpty, link.first == UInt8(ascii: "/"), link.starts(with: path) else { return nil }
        let rest = link[path.count...]
        guard Self.endsComponent(rest) else { return nil }
        return rest.first == UInt8(ascii: "/") ? Array(rest) : [UInt8(ascii: "/")] + rest
    }

    /// Whether `rest` is empty or starts a new path segment, query or fragment.
    private static func endsComponent(_ rest: ArraySlice<UInt8>) -> Bool {
        guard let first = rest.first else { return true }
        return first == UInt8(ascii: "/") || first == UInt8(ascii: "?") || first == UInt8(ascii: "#")
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
