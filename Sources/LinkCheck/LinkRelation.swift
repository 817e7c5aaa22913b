/// The `rel` of a `<link>`: resources (stylesheets, icons, manifests, preloads) are links to
/// check; connection hints name an origin to warm up, not a resource.
enum LinkRelation {
    private static let connectionHints: Set<String> = ["preconnect", "dns-prefetch"]

    /// Whether every keyword of `rel` is a connection hint (`preconnect`, `dns-prefetch`).
    static func isConnectionHint(_ rel: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let rel else { return false }
        let keywords = rel.split(whereSeparator: Srcset.isWhitespace)
        return !keywords.isEmpty && keywords.allSatisfy { connectionHints.contains(String(decoding: $0.map { $0 | 0x20 }, as: UTF8.self)) }
    }
}
