#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the destinations of inline Markdown links (`[text](target)`, `[text](<target>)`,
/// `[text](target "title")`) in a string by scanning its UTF-8 bytes for `](`: no regular
/// expression, and no allocation for strings without a link.
enum MarkdownLinks {
    static func destinations(in text: String) -> [String] {
        var text = text
        return text.withUTF8(destinations(in:))
    }

    /// The destinations in a string of these UTF-8 bytes, found by `memchr` from one `(` to
    /// the next (a byte loop took most of the time every story's Markdown was scanned).
    static func destinations(in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        guard let base = bytes.baseAddress, bytes.count > 1 else { return [] }
        var destinations: [String] = []
        var index = 1
        while index < bytes.count, let found = memchr(base + index, Int32(UInt8(ascii: "(")), bytes.count - index) {
            index = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            if bytes[index - 1] == UInt8(ascii: "]"), let destination = destination(in: bytes, from: index + 1) {
                destinations.append(destination)
            }
            index += 1
        }
        return destinations
    }

    /// Reads the destination starting at `start` (just after `(`). One holding `](` is not a
    /// destination but the start of another link, which scanning goes on to find.
    private static func destination(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> String? {
        var index = start
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        guard index < bytes.count else { return nil }
        let open: Int
        let close: Int
        if bytes[index] == UInt8(ascii: "<") {
            open = index + 1
            index = open
            while index < bytes.count, bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "\n") { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { return nil }
            close = index
        } else {
            open = index
            var depth = 0
            scan: while index < bytes.count {
                switch bytes[index] {
                case 0...UInt8(ascii: " "): break scan
                case UInt8(ascii: "("): depth += 1
                case UInt8(ascii: ")"):
                    if depth == 0 { break scan }
                    depth -= 1
                case UInt8(ascii: "]") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "("):
                    return nil
                default: break
                }
                index += 1
            }
            close = index
        }
        guard close > open else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[open..<close]), as: UTF8.self)
    }
}
