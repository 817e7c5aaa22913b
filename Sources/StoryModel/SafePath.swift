import Foundation

/// The one rule for every path storysite writes or deletes below a folder it writes (the output
/// folder, a pulled folder), whatever named it: a slug, a manifest entry (untrusted: an output
/// folder can come from a CI cache), pull's list of the files it wrote, an asset, a page
/// storysite makes itself.
///
/// Such a path is relative and stays inside the folder: no leading `/`, no backslash, no control
/// character, no empty, `.` or `..` segment, and nothing in `.storysite/` (storysite's own records)
/// or `.git/` (the user's repository). Each segment is at most 255 UTF-8 bytes (a file
/// name's limit on common file systems) and the whole at most 1,024, so a write cannot fail for
/// its length half-way through a build. Paths are compared and written in one Unicode normal
/// form, NFC: a slug typed decomposed and later composed names the same file.
public enum SafePath {
    /// The longest segment, in UTF-8 bytes.
    public static let maximumSegmentBytes = 255
    /// The longest path, in UTF-8 bytes.
    public static let maximumBytes = 1024
    /// Folders at the top that never hold a site's files: storysite's records, and the repository
    /// a site is often published from.
    private static let reservedFirstSegments = [".storysite", ".git"]

    /// `path` in NFC, the form storysite writes and compares paths in.
    public static func normalized(_ path: String) -> String {
        // Most paths are ASCII, which is NFC already; Foundation's normaliser costs at 10,000 pages.
        isASCII(path) ? path : path.precomposedStringWithCanonicalMapping
    }

    /// Whether `path` is in NFC byte for byte (Swift's `==` calls canonically equivalent text equal).
    public static func isNormalized(_ path: String) -> Bool {
        isASCII(path) || path.hasSameUTF8(as: path.precomposedStringWithCanonicalMapping)
    }

    /// Whether every byte of `path` is ASCII.
    private static func isASCII(_ path: String) -> Bool {
        path.withUTF8Bytes { bytes in bytes.allSatisfy { $0 < 0x80 } }
    }

    /// Why `path` is not a path storysite may write or delete below its folder, as the end
    /// of a sentence ("it contains a '..' segment"); nil when it is one.
    public static func problem(in path: String) -> String? {
        // Every manifest entry and page comes here: most pass the byte-level check alone.
        if isPlainlySafe(path) { return nil }
        // Bytes, not characters, here too: a `/` or a backslash followed by a combining mark is one
        // character with it, so a split or search by character would not see it.
        let bytes = path.utf8
        if bytes.isEmpty { return "it is empty" }
        if bytes.first == UInt8(ascii: "/") { return "it is an absolute path" }
        if bytes.contains(UInt8(ascii: "\\")) { return "it contains a backslash" }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "it contains a control character"
        }
        if bytes.count > maximumBytes { return "it is \(bytes.count) bytes long; a path may be at most \(maximumBytes)" }
        let segments = path.partsBetweenSlashes(omittingEmpty: false)
        for segment in segments {
            if segment.utf8.elementsEqual("..".utf8) || segment.utf8.elementsEqual(".".utf8) { return "it contains a '\(segment)' segment" }
            if segment.isEmpty { return "it contains an empty segment ('//')" }
            if segment.utf8.count > maximumSegmentBytes {
                return "the segment '\(segment.prefix(20))…' is \(segment.utf8.count) bytes long; "
                    + "a file name may be at most \(maximumSegmentBytes)"
            }
        }
        if let reserved = reservedFirstSegments.first(where: { segments[0].utf8.elementsEqual($0.utf8) }) {
            return "'\(reserved)/' is \(reserved == ".git" ? "the user's repository" : "storysite's own"), never a file of the site"
        }
        return nil
    }

    /// Whether `path` follows the rule, judged byte by byte: relative, no backslash or control
    /// character (in UTF-8 those bytes are never part of another character), no empty, `.` or
    /// `..` segment, within the lengths, not below a reserved folder. False when in doubt:
    /// ``problem(in:)`` then looks again, and says what is wrong.
    private static func isPlainlySafe(_ path: String) -> Bool {
        path.withUTF8Bytes(isPlainlySafe)
    }

    private static func isPlainlySafe(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maximumBytes else { return false }
        let dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")
        var segmentLength = 0
        var segmentDots = 0
        var firstSegment = true
        var firstSegmentIsDotted = false
        func segmentIsPlain() -> Bool {
            segmentLength > 0 && segmentLength <= maximumSegmentBytes && !(segmentLength <= 2 && segmentDots == segmentLength)
        }
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") { return false }
            if byte == slash {
                guard segmentIsPlain() else { return false }
                firstSegment = false
                segmentLength = 0
                segmentDots = 0
                continue
            }
            if firstSegment && segmentLength == 0 && byte == dot { firstSegmentIsDotted = true }
            segmentLength += 1
            if byte == dot { segmentDots += 1 }
        }
        // A first segment starting with a dot may be reserved (`.git`, `.storysite`): looked at again.
        return segmentIsPlain() && !firstSegmentIsDotted
    }

    /// Pairs of `paths` (files) where one lies below the other, which would have to be a file and
    /// a folder at once (`about` and `about/index.html`); each pair once, sorted, the file first.
    public static func folderConflicts(among paths: some Sequence<String>) -> [(file: String, below: String)] {
        let paths = Array(paths)
        // The set is made only when a folder's hash matches a path's (see the other overload).
        var files: Set<String>?
        let conflicts = folderConflicts(among: paths) { path in
            if files == nil { files = Set(paths) }
            return files!.contains(path)
        }
        // A path given twice gives its conflicts twice, side by side once sorted.
        return conflicts.enumerated().filter { $0.offset == 0 || conflicts[$0.offset - 1] != $0.element }.map(\.element)
    }

    /// ``folderConflicts(among:)`` for paths held in a table already, without copying them into a
    /// set: `paths` must hold each path once, and `contains` tells whether a path is among them.
    public static func folderConflicts(
        among paths: some Collection<String>, contains: (String) -> Bool
    ) -> [(file: String, below: String)] {
        var conflicts: [(file: String, below: String)] = []
        // Where every path is ASCII (so `==` is equality of bytes), a folder is looked up by the
        // hash of its bytes first, and only a hash that some path has is looked up as a string:
        // making a string of every folder of every path and hashing it again cost a rebuild of
        // 10,000 pages 3% of its instructions. Otherwise every folder is looked up.
        var hashes: Set<UInt64>? = Set(minimumCapacity: paths.count)
        for path in paths {
            guard let hash = path.withUTF8Bytes({ $0.allSatisfy { $0 < 0x80 } ? hashOfBytes($0) : nil }) else {
                hashes = nil
                break
            }
            hashes?.insert(hash)
        }
        for path in paths {
            path.withUTF8Bytes { bytes in
                // The hash of the bytes before each slash: of a folder of the path.
                var hash = fnvOffset
                for (index, byte) in bytes.enumerated() {
                    if byte == UInt8(ascii: "/"), hashes?.contains(hash) ?? true {
                        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<index]), as: UTF8.self)
                        if contains(name) { conflicts.append((name, path)) }
                    }
                    hash = (hash ^ UInt64(byte)) &* fnvPrime
                }
            }
        }
        return conflicts.sorted { ($0.file, $0.below) < ($1.file, $1.below) }
    }

    /// ``folderConflicts(among:)`` of `paths` in ASCII and each after the one before in the
    /// order of their bytes, as a manifest is written; nil when they are not. In that order a
    /// path below another comes after it, and every path between them begins with the other:
    /// the earlier paths that begin the one looked at are a stack, and one pass finds every
    /// pair without a lookup (looking up the folders of 10,000 paths by hash was 2% of a
    /// one-story rebuild).
    public static func folderConflicts(amongOrdered paths: [String]) -> [(file: String, below: String)]? {
        var conflicts: [(file: String, below: String)] = []
        // The positions of the earlier paths that begin the last one, each beginning the next.
        var beginning: [Int] = []
        for (index, path) in paths.enumerated() {
            let ordered = path.withUTF8Bytes { bytes -> Bool in
                guard bytes.allSatisfy({ $0 < 0x80 }), index == 0 || paths[index - 1].utf8Precedes(path) else { return false }
                while let last = beginning.last, !paths[last].withUTF8Bytes({ bytes.starts(with: $0) }) { beginning.removeLast() }
                for earlier in beginning where bytes[paths[earlier].utf8.count] == UInt8(ascii: "/") {
                    conflicts.append((paths[earlier], path))
                }
                return true
            }
            guard ordered else { return nil }
            beginning.append(index)
        }
        return conflicts.sorted { ($0.file, $0.below) < ($1.file, $1.below) }
    }

    private static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let fnvPrime: UInt64 = 0x100_0000_01b3

    /// The FNV-1a hash of `bytes`.
    private static func hashOfBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        bytes.reduce(fnvOffset) { ($0 ^ UInt64($1)) &* fnvPrime }
    }
}
