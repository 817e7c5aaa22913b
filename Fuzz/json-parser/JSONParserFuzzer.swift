import StoryModel

/// The JSON parser on any bytes: it either fails with a position inside the input, or its
/// value, written back (compact and pretty), parses again to the same value. Objects are also
/// read as stories, which must never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = inputBytes(data, size)
    let value: JSONValue
    do {
        value = try JSONValue(parsing: bytes)
    } catch {
        let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        require(error.line >= 1 && error.line <= lines, "error line \(error.line) outside the input's \(lines) lines: \(error)")
        require(error.column >= 1 && error.column <= bytes.count + 1, "error column \(error.column) past the input: \(error)")
        require(!error.message.isEmpty, "an error without a message at \(error.line):\(error.column)")
        return 0
    }
    for pretty in [false, true] {
        let written = value.jsonBytes(pretty: pretty)
        let reread: JSONValue
        do {
            reread = try JSONValue(parsing: written)
        } catch {
            require(false, "the parser refuses what the writer wrote (pretty: \(pretty)): \(error)\n\(String(decoding: written, as: UTF8.self))")
            return 0
        }
        require(reread == value, "written and read again, the value changed (pretty: \(pretty)):\n\(String(decoding: written, as: UTF8.self))")
    }
    if case .object(let object) = value {
        _ = try? Story(json: object)
        if case .object(let story)? = object["story"] { _ = try? Story(json: story) }
    }
    return 0
}
