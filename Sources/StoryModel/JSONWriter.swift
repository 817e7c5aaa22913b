extension JSONValue {
    /// The value as JSON text, keys in document order and whole numbers without a fraction, so
    /// it reads back as the same value. A number too large for a double (`1e400`, read as
    /// infinity) is written `1e400` or `-1e400`, valid JSON that reads back as the same value;
    /// NaN, which no JSON text reads as, is written `null`. Compact by default; `pretty` indents by two spaces, for
    /// files people read.
    public func jsonText(pretty: Bool = false) -> String {
        String(decoding: jsonBytes(pretty: pretty), as: UTF8.self)
    }

    /// ``jsonText(pretty:)`` as UTF-8 bytes, for writing to a file.
    public func jsonBytes(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self, depth: 0)
        return writer.bytes
    }

    /// Appends `string` to `bytes` as a JSON string, in quotes and escaped as
    /// ``jsonText(pretty:)`` writes it: for a file written a line at a time, without a tree.
    public static func appendQuoted(_ string: String, to bytes: inout [UInt8]) {
        var writer = JSONWriter(pretty: false)
        swap(&writer.bytes, &bytes)
        writer.write(string)
        swap(&writer.bytes, &bytes)
    }

    /// Appends `value` to `bytes` in decimal digits, as ``jsonText(pretty:)`` writes a whole
    /// number, without making a string of it first.
    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        withDecimalDigits(of: value) { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with `value` in decimal digits (after a `-` when it is negative), written
    /// into memory of the call's own: nothing is allocated.
    public static func withDecimalDigits<Result>(of value: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            return body(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}

/// Writes ``JSONValue`` trees as JSON text, into a byte buffer.
private struct JSONWriter {
    let pretty: Bool
    var bytes: [UInt8] = []

    init(pretty: Bool) {
        self.pretty = pretty
    }

    mutating func write(_ value: JSONValue, depth: Int) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number):
            if number.isNaN {
                append("null")
            } else if number.isInfinite {
                append(number < 0 ? "-1e400" : "1e400")
            } else if number == number.rounded(), abs(number) < 9e15 {
                JSONValue.appendInteger(Int64(number), to: &bytes)
            } else {
                append(String(number))
            }
        case .string(let string): write(string)
        case .array(let elements):
            writeContainer(UInt8(ascii: "["), UInt8(ascii: "]"), count: elements.count, depth: depth) { writer, index in
                writer.write(elements[index], depth: depth + 1)
            }
        case .object(let object):
            writeContainer(UInt8(ascii: "{"), UInt8(ascii: "}"), count: object.count, depth: depth) { writer, index in
                writer.write(object[index].key)
                writer.append(writer.pretty ? ": " : ":")
                writer.write(object[index].value, depth: depth + 1)
            }
        }
    }

    private mutating func writeContainer(
        _ open: UInt8, _ close: UInt8, count: Int, depth: Int, element: (inout JSONWriter, Int) -> Void
    ) {
        bytes.append(open)
        guard count > 0 else { return bytes.append(close) }
        for index in 0..<count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if pretty { newline(depth: depth + 1) }
            element(&self, index)
        }
        if pretty { newline(depth: depth) }
        bytes.append(close)
    }

    private mutating func newline(depth: Int) {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A string in quotes, escaped; runs of bytes that need no escape are copied whole.
    mutating func write(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string  // withUTF8 may make the storage contiguous, so it needs a var
        string.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: utf8[runStart..<index])
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                default:
                    let hex = String(byte, radix: 16)
                    append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                }
            }
            bytes.append(contentsOf: utf8[runStart...])
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
