/// Decoding of percent-encoded URL parts. Malformed escapes are kept as written, and bytes that
/// are not UTF-8 become replacement characters.
public enum PercentDecoding {
    /// `text` with `%XX` escapes decoded; with `plusIsSpace`, `+` becomes a space (query syntax).
    public static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(UInt8(ascii: "%")) || (plusIsSpace && utf8.contains(UInt8(ascii: "+"))) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count, let high = hexValue(utf8[index + 1]),
               let low = hexValue(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The pairs of a query string (`a=1&b=x%20y&flag`), decoded, empty pairs skipped.
    public static func queryItems(_ query: String) -> [HTTPRequest.QueryItem] {
        query.split(separator: "&").map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return HTTPRequest.QueryItem(
                    name: decode(pair[..<equals], plusIsSpace: true),
                    value: decode(pair[pair.index(after: equals)...], plusIsSpace: true))
            }
            return HTTPRequest.QueryItem(name: decode(pair, plusIsSpace: true), value: "")
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
