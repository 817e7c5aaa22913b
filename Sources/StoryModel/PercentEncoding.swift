/// Percent-encoding of site paths for URLs, the counterpart of ``PercentDecoding``: the one place
/// a page's path (raw slug text, as its folder is named on disk) becomes the path of a URL, for
/// hrefs, `page.canonical`, feeds and the sitemap alike.
public enum PercentEncoding {
    /// `path` with every byte that may not stand in a URL path as it is written `%XX` (upper
    /// case): a space, `#`, `?`, `%` (so `%2e%2e` stays a name, never `..`), quotes, non-ASCII
    /// text as its UTF-8 bytes. Letters, digits, `/` and `-._~!$&'()*+,=:@` stay as they are.
    public static func path(_ path: String) -> String {
        // Most slugs need no encoding: returned as they are, without a copy.
        guard !path.withUTF8Bytes({ $0.allSatisfy(isAllowedInPath) }) else { return path }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(path.utf8.count + 16)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in path.utf8 {
            if isAllowedInPath(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The site-relative `path` (raw slug text) as an absolute URL under `baseURL`, its path
    /// encoded: `blog/café/` under `https://example.com` is `https://example.com/blog/caf%C3%A9/`.
    public static func absoluteURL(_ path: String, under baseURL: String) -> String {
        (baseURL.hasSuffix("/") ? baseURL : baseURL + "/") + Self.path(path)
    }

    /// Whether `byte` may stand in a URL path as it is: an ASCII character of RFC 3986's `pchar`
    /// other than `;`, or `/`.
    ///
    /// Each byte a case of its own, which the compiler tests at once: looking for the byte in a
    /// string of them cost a full build of 10,000 pages 1.5% of its time (every link of every page).
    private static func isAllowedInPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }
}
