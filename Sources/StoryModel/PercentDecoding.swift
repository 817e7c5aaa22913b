/// Decoding of `%XX` escapes in URLs and paths, shared by every stage that reads links.
public enum PercentDecoding {
    /// `text` with its escapes decoded, or nil when an escape is malformed or the result is not
    /// valid UTF-8 (a path is then better taken as written).
    public static func strict(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        return decoded.utf8.elementsEqual(bytes) ? decoded : nil
    }

    /// `bytes` with every `%XX` (two hex digits) replaced by the byte it encodes, once, as a
    /// static host does to a request path; a `%` not followed by two hex digits stays as it is.
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        append(bytes, to: &decoded)
        return decoded
    }

    /// Appends the decoded `bytes` to `output`, and says whether an encoded `/` (`%2F`) was among them.
    @discardableResult
    public static func append<Bytes: Collection<UInt8>>(_ bytes: Bytes, to output: inout [UInt8]) -> Bool {
        var decodedSlash = false
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            bytes.formIndex(after: &index)
            guard byte == UInt8(ascii: "%"), index != bytes.endIndex else {
                output.append(byte)
                continue
            }
            let second = bytes.index(after: index)
            guard second != bytes.endIndex, let high = hexValue(bytes[index]), let low = hexValue(bytes[second]) else {
                output.append(byte)
                continue
            }
            let decodedByte = high << 4 | low
            if decodedByte == UInt8(ascii: "/") { decodedSlash = true }
            output.append(decodedByte)
            index = bytes.index(after: second)
        }
        return decodedSlash
    }

    /// Whether `bytes` holds a `%` at all (so decoding could change it).
    public static func hasEscape<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        bytes.contains(UInt8(ascii: "%"))
    }

    /// The value of one hexadecimal digit.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
