import StoryModel

/// Compact JSON text for the fake API's responses.
enum WireJSON {
    static func encode(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(value, into: &bytes)
        return bytes
    }

    static func encode(_ value: JSONValue, into bytes: inout [UInt8]) {
        switch value {
        case .null: bytes += Array("null".utf8)
        case .bool(let flag): bytes += Array((flag ? "true" : "false").utf8)
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 {
                bytes += Array(String(Int(number)).utf8)
            } else {
                bytes += Array(String(number).utf8)
            }
        case .string(let string): encode(string, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                encode(element, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (index, entry) in object.entries.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                encode(entry.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                encode(entry.value, into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    static func encode(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0..<0x20: bytes += Array(("\\u00" + (byte < 16 ? "0" : "") + String(byte, radix: 16)).utf8)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
