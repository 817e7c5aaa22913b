import Foundation
import HTTPServer

/// A request path checked against the served folder: decoded once, with every way out refused.
///
/// The raw path is split on `/` before decoding, so `%2F` can never make a new segment; a
/// segment that decodes to `.`, `..`, or anything holding `/`, `\` or a control character (NUL
/// included) is refused, and so is a path longer than ``maximumLength``. Symlinks are allowed
/// only while their real target stays under the folder (checked by ``SiteFolder``).
struct SitePath: Equatable {
    /// The longest raw path accepted, in bytes.
    static let maximumLength = 2048

    /// Why a path was refused.
    enum Refusal: Error, Equatable {
        case notAbsolute, tooLong, unsafeSegment(String)
    }

    /// The decoded segments, empty ones dropped (`/a//b/` → `a`, `b`).
    let segments: [String]
    /// Whether the raw path ends with `/` (a folder was asked for).
    let endsWithSlash: Bool

    init(raw: String) throws(Refusal) {
        guard raw.hasPrefix("/") else { throw .notAbsolute }
        guard raw.utf8.count <= Self.maximumLength else { throw .tooLong }
        var segments: [String] = []
        for part in raw.split(separator: "/", omittingEmptySubsequences: true) {
            let segment = PercentDecoding.decode(part)
            let unsafe = segment == "." || segment == ".."
                || segment.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
            if unsafe { throw .unsafeSegment(segment) }
            segments.append(segment)
        }
        self.segments = segments
        endsWithSlash = raw.hasSuffix("/")
    }

    /// The path re-encoded for a `Location` header, always starting with exactly one `/`, so a
    /// redirect can never point at another host (`//evil.example`).
    var encoded: String {
        "/" + segments.map { $0.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? "" }.joined(separator: "/")
    }

    private static let segmentCharacters: CharacterSet = {
        var characters = CharacterSet.urlPathAllowed
        characters.remove(charactersIn: "/;?#%")
        return characters
    }()
}
