import Foundation
import HTTPServer

/// The HTTP server's percent-decoding (its own, as the server module depends on no other):
/// text whose every byte is encoded decodes to itself, with and without `plusIsSpace`.
func checkServerPercentDecoding(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let encoded = text.utf8.map { String(format: "%%%02X", $0) }.joined()
    require(PercentDecoding.decode(encoded[...]) == text, "the server's decoding of \(encoded) is not \(text.debugDescription)")
    require(PercentDecoding.decode(encoded[...], plusIsSpace: true) == text, "the server's decoding of \(encoded) (plusIsSpace) is not \(text.debugDescription)")
    _ = PercentDecoding.queryItems(text)
}
