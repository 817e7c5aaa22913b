/// A link's value read the way a browser's URL parser reads it, before resolving it: whitespace
/// at the ends stripped, tabs and line breaks inside removed, a backslash in the path taken as
/// `/`, and sorted into the forms link checking treats differently.
struct LinkText {
    enum Form: Equatable {
        /// Nothing left after stripping (`href=""`): valid, but usually an unresolved CMS link.
        case empty
        /// Exactly `#`: valid, but goes nowhere.
        case bareHash
        /// `javascript:`, `mailto:`, `tel:`, `data:`: not a link to a page or file.
        case notALink
        /// Any other scheme (`https:`, `HTTPS:`, `ftp:`): the lowercased scheme and the whole text.
        case absolute(scheme: String, text: [UInt8])
        /// `//host/path`: another host, with the page's scheme.
        case networkPath(text: [UInt8])
        /// A path relative to the page or the site root (possibly empty, as in `#top` or
        /// `?page=2`), the query dropped, and the fragment when there is a `#`.
        case reference(path: ArraySlice<UInt8>, fragment: ArraySlice<UInt8>?)
    }

    let form: Form
    /// The value after stripping and backslash replacement, as a browser would request it.
    let text: [UInt8]
    /// Whether a space sits inside the value (browsers encode it; authors should).
    let hasRawSpace: Bool
    /// Whether the path held a backslash (read as `/`).
    let hasBackslash: Bool

    private static let notLinkSchemes: Set<String> = ["javascript", "mailto", "tel", "data"]

    init(_ raw: [UInt8]) {
        var cleaned = Self.cleaned(raw)
        hasRawSpace = cleaned.contains(UInt8(ascii: " "))
        hasBackslash = Self.replaceBackslashesInPath(&cleaned)
        text = cleaned

        if cleaned.isEmpty {
            form = .empty
        } else if cleaned == [UInt8(ascii: "#")] {
            form = .bareHash
        } else if let scheme = Self.scheme(of: cleaned) {
            form = Self.notLinkSchemes.contains(scheme) ? .notALink : .absolute(scheme: scheme, text: cleaned)
        } else if cleaned.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            form = .networkPath(text: cleaned)
        } else {
            let hash = cleaned.firstIndex(of: UInt8(ascii: "#"))
            let beforeFragment = cleaned[..<(hash ?? cleaned.endIndex)]
            let path = beforeFragment[..<(beforeFragment.firstIndex(of: UInt8(ascii: "?")) ?? beforeFragment.endIndex)]
            form = .reference(path: path, fragment: hash.map { cleaned[($0 + 1)...] })
        }
    }

    /// Strips leading and trailing C0 controls and spaces, and removes tabs, LFs and CRs.
    private static func cleaned(_ raw: [UInt8]) -> [UInt8] {
        guard let first = raw.firstIndex(where: { $0 > 0x20 }), let last = raw.lastIndex(where: { $0 > 0x20 }) else {
            return []
        }
        let trimmed = raw[first...last]
        guard trimmed.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            return trimmed.count == raw.count ? raw : Array(trimmed)
        }
        return trimmed.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    }

    /// Replaces `\` with `/` before the query or fragment, as browsers do for http(s) and file
    /// URLs; says whether there was one.
    private static func replaceBackslashesInPath(_ bytes: inout [UInt8]) -> Bool {
        guard bytes.contains(UInt8(ascii: "\\")) else { return false }
        var replaced = false
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "?"), UInt8(ascii: "#"):
                return replaced
            case UInt8(ascii: "\\"):
                bytes[index] = UInt8(ascii: "/")
                replaced = true
            default:
                continue
            }
        }
        return replaced
    }

    /// The lowercased scheme when `bytes` starts with one (`letter *(letter / digit / + / - / .) :`).
    static func scheme(of bytes: [UInt8]) -> String? {
        guard let first = bytes.first, isLetter(first) else { return nil }
        for (index, byte) in bytes.enumerated().dropFirst() {
            if byte == UInt8(ascii: ":") {
                return String(decoding: bytes[..<index].map { $0 | 0x20 }, as: UTF8.self)
            }
            guard isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return nil }
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
