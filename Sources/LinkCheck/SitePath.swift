import StoryModel

/// Where a link leads on the site once resolved: a path from the site root, decoded once as a
/// host decodes a request path, without the leading `/`. A folder's path ends with `/`; the
/// root is empty.
struct SitePath: Equatable {
    var bytes: [UInt8]
    /// Whether a `%2F` was decoded inside a segment (hosts differ on whether it separates folders).
    var hasEncodedSlash = false

    /// Whether the path names a folder (its index page) rather than a file.
    var isFolder: Bool { bytes.isEmpty || bytes.last == UInt8(ascii: "/") }

    /// The folder a relative link in this document resolves against: the path itself for a
    /// folder, otherwise everything up to the last `/`.
    var directory: [UInt8] {
        guard !isFolder else { return bytes }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return [] }
        return Array(bytes[...slash])
    }

    /// Resolves a link's path part (not empty; query and fragment removed) against `directory`
    /// (a decoded folder path, empty or ending with `/`). A leading `/` starts at the site root;
    /// `..` above the root stays at the root; `.`, `..` and their percent-encoded spellings
    /// (`%2e%2e`) are dot segments, as in the WHATWG URL standard; repeated slashes collapse;
    /// other segments are percent-decoded once.
    static func resolve(_ reference: ArraySlice<UInt8>, against directory: [UInt8]) -> SitePath {
        var resolved = SitePath(bytes: [])
        resolved.bytes.reserveCapacity(directory.count + reference.count)
        var start = reference.startIndex
        if reference.first == UInt8(ascii: "/") {
            start += 1
        } else {
            resolved.bytes.append(contentsOf: directory)
        }
        while true {
            let end = reference[start...].firstIndex(of: UInt8(ascii: "/")) ?? reference.endIndex
            let segment = reference[start..<end]
            let isLast = end == reference.endIndex
            if isDoubleDot(segment) {
                resolved.removeLastSegment()
            } else if !segment.isEmpty, !isSingleDot(segment) {
                if !segment.contains(UInt8(ascii: "%")) {
                    resolved.bytes.append(contentsOf: segment)
                } else if PercentDecoding.append(segment, to: &resolved.bytes) {
                    resolved.hasEncodedSlash = true
                }
                if !isLast { resolved.bytes.append(UInt8(ascii: "/")) }
            }
            if isLast { return resolved }
            start = end + 1
        }
    }

    /// Drops the last folder of a folder path (`a/b/` → `a/`); the root stays the root.
    private mutating func removeLastSegment() {
        guard !bytes.isEmpty else { return }
        bytes.removeLast()
        if let slash = bytes.lastIndex(of: UInt8(ascii: "/")) {
            bytes.removeSubrange((slash + 1)...)
        } else {
            bytes.removeAll(keepingCapacity: true)
        }
    }

    private static func isSingleDot(_ segment: ArraySlice<UInt8>) -> Bool {
        segment.elementsEqual(".".utf8) || isEncodedDot(segment)
    }

    private static func isDoubleDot(_ segment: ArraySlice<UInt8>) -> Bool {
        switch segment.count {
        case 2: return segment.elementsEqual("..".utf8)
        case 4: return (segment.first == UInt8(ascii: ".") && isEncodedDot(segment.dropFirst()))
            || (segment.last == UInt8(ascii: ".") && isEncodedDot(segment.dropLast()))
        case 6: return isEncodedDot(segment.prefix(3)) && isEncodedDot(segment.suffix(3))
        default: return false
        }
    }

    /// `%2e` or `%2E`.
    private static func isEncodedDot(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == 3 && bytes.first == UInt8(ascii: "%") && bytes.dropFirst().first == UInt8(ascii: "2")
            && bytes.last.map { $0 | 0x20 } == UInt8(ascii: "e")
    }
}
