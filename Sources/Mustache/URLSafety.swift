/// Decides whether a URL from content may be placed in an `href` or `src`: the one rule for
/// richtext, Markdown, multilinks, assets and, when a render asks for it, every value a template
/// writes at the start of a URL attribute (``URLPolicy/filtered``).
///
/// A URL is refused when its scheme runs script or embeds a document (`javascript:`, `vbscript:`,
/// `livescript:`, `data:`), also when the scheme is obfuscated the way browsers would still
/// follow it: mixed case, leading spaces or control characters, tabs and newlines inside
/// (`java\tscript:`), character references (`&#106;avascript:`, `javascript&colon;`) and
/// percent-encoding. Images may use `data:image/...` (except SVG, which can carry script).
public enum URLSafety {
    /// What a refused URL is replaced with in a URL attribute: it loads nothing, runs nothing,
    /// and says why when someone reads the page's source.
    public static let replacement = "about:invalid#unsafe-url"

    private static let blockedSchemes: Set<String> = ["javascript", "vbscript", "livescript", "data"]

    /// Whether `url` is safe in an `href`.
    public static func isSafeLink(_ url: String) -> Bool {
        isSafe(url, allowImageData: false)
    }

    /// Whether `url` is safe as an image `src`.
    public static func isSafeImageSource(_ url: String) -> Bool {
        isSafe(url, allowImageData: true)
    }

    private static func isSafe(_ url: String, allowImageData: Bool) -> Bool {
        // Fast path: a plain http(s) URL, relative path or fragment needs no decoding.
        if isPlainlySafe(url) { return true }
        var candidates = [url]
        var decoded = url
        for _ in 0..<3 {
            let next = percentDecoded(characterReferencesDecoded(decoded))
            if next == decoded { break }
            candidates.append(next)
            decoded = next
        }
        for candidate in candidates {
            let normalized = normalizedPrefix(candidate)
            guard let colon = normalized.firstIndex(of: ":") else { continue }
            let scheme = String(normalized[..<colon])
            guard blockedSchemes.contains(scheme) else { continue }
            if scheme == "data" && allowImageData {
                let rest = normalized[normalized.index(after: colon)...]
                if rest.hasPrefix("image/") && !rest.hasPrefix("image/svg") { continue }
            }
            return false
        }
        return true
    }

    /// Whether `url` starts with a character that rules out a scheme (`/`, `#`, `?`, `.`) or with
    /// `http://` / `https://`, and holds no `&`, `%`, or control characters that could hide one.
    private static func isPlainlySafe(_ url: String) -> Bool {
        var utf8 = url.utf8.makeIterator()
        guard let first = utf8.next() else { return true }
        var hasSafeStart = false
        switch first {
        case UInt8(ascii: "/"), UInt8(ascii: "#"), UInt8(ascii: "?"), UInt8(ascii: "."): hasSafeStart = true
        default: hasSafeStart = url.hasPrefix("https://") || url.hasPrefix("http://")
        }
        guard hasSafeStart else { return false }
        // Over the bytes in place where they are contiguous: a loop over the UTF-8 view took
        // fifty instructions a byte, for every link of every page.
        let isPlain = { (byte: UInt8) in !(byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "%")) }
        return url.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPlain) } ?? url.utf8.allSatisfy(isPlain)
    }

    /// The part of `url` that decides its scheme, lowercased, without the characters browsers
    /// ignore there: every ASCII control character and space (leading ones are stripped and tab or
    /// newline removed anywhere by the URL parser; removing all is the conservative choice).
    private static func normalizedPrefix(_ url: String) -> String {
        var result = ""
        var count = 0
        for scalar in url.unicodeScalars {
            if scalar.value <= 0x20 || scalar.value == 0x7F { continue }
            // Invisible format characters some parsers drop as well.
            if scalar.value == 0xFEFF || (0x200B...0x200D).contains(scalar.value) { continue }
            result.unicodeScalars.append(scalar)
            count += 1
            if count == 48 { break }  // enough for any blocked scheme and a data: media type
        }
        return result.lowercased()
    }

    /// `text` with numeric (`&#106;`, `&#x6A;`, with or without `;`) and the scheme-relevant named
    /// character references (`&colon;`, `&Tab;`, `&NewLine;`, `&amp;`...) decoded.
    static func characterReferencesDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "&", index + 1 < scalars.count else {
                result.append(scalar)
                index += 1
                continue
            }
            if let (decoded, length) = decodeReference(scalars, at: index) {
                result.append(decoded)
                index += length
            } else {
                result.append(scalar)
                index += 1
            }
        }
        return String(result)
    }

    private static let namedReferences: [String: Unicode.Scalar] = [
        "colon": ":", "tab": "\t", "newline": "\n", "amp": "&", "lt": "<", "gt": ">",
        "quot": "\"", "apos": "'", "sol": "/", "lpar": "(", "rpar": ")", "nbsp": "\u{A0}",
        "period": ".", "comma": ",", "semi": ";", "excl": "!", "num": "#", "percnt": "%",
    ]

    private static func decodeReference(_ scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        var index = start + 1
        if scalars[index] == "#" {
            index += 1
            var radix: UInt32 = 10
            if index < scalars.count, scalars[index] == "x" || scalars[index] == "X" {
                radix = 16
                index += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while index < scalars.count, let digit = digitValue(scalars[index], radix: radix) {
                value = min(value &* radix &+ digit, 0x110000)
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if index < scalars.count, scalars[index] == ";" { index += 1 }
            return (Unicode.Scalar(value) ?? "\u{FFFD}", index - start)
        }
        var name = ""
        while index < scalars.count, scalars[index].properties.isAlphabetic, name.unicodeScalars.count < 10 {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard let decoded = namedReferences[name.lowercased()] else { return nil }
        if index < scalars.count, scalars[index] == ";" { index += 1 }
        return (decoded, index - start)
    }

    private static func digitValue(_ scalar: Unicode.Scalar, radix: UInt32) -> UInt32? {
        digitValue(scalar.value, radix: radix)
    }

    private static func digitValue(_ value: UInt32, radix: UInt32) -> UInt32? {
        switch value {
        case 0x30...0x39: return value - 0x30
        case 0x41...0x46 where radix == 16: return value - 0x41 + 10
        case 0x61...0x66 where radix == 16: return value - 0x61 + 10
        default: return nil
        }
    }

    /// `text` with every well-formed `%XX` decoded, as a browser would before looking at a URL:
    /// malformed escapes stay as written and invalid UTF-8 becomes U+FFFD.
    private static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = digitValue(UInt32(bytes[index + 1]), radix: 16),
                let low = digitValue(UInt32(bytes[index + 2]), radix: 16)
            {
                decoded.append(UInt8(high << 4 | low))
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
