/// The path from a story's root block to the value being visited (`body[2].columns[0].link`),
/// kept as the bytes of its text, each push appending to them and each pop cutting them back, so
/// that a walk makes no string for each field it passes and only one for each path it needs:
/// when a reference is found (crawl) or a warning is reported (render). Shared by every walk
/// over a block tree so their paths always agree.
public final class FieldPath {
    // Pushed and popped for every value a walk visits, so the properties are unchecked: the
    // runtime check of exclusive access costs as much as the push itself, and a path is never
    // shared across threads nor touched re-entrantly.

    /// The text so far.
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    /// For each component pushed: how long the text was before it, and, for a root, the text it replaced.
    @exclusivity(unchecked) private var marks: [(length: Int, replaced: [UInt8]?)] = []

    public init() {
        bytes.reserveCapacity(128)
        marks.reserveCapacity(16)
    }

    /// Enters the field `key`.
    public func push(_ key: String) {
        var key = key  // withUTF8 may make the storage contiguous, so it needs a var
        key.withUTF8 { push(key: $0) }
    }

    /// Enters the field whose name has the UTF-8 bytes `key`.
    public func push(key: UnsafeBufferPointer<UInt8>) {
        marks.append((bytes.count, nil))
        if !bytes.isEmpty { bytes.append(UInt8(ascii: ".")) }
        bytes.append(contentsOf: key)
    }

    /// Enters the element at `index`.
    public func push(index: Int) {
        marks.append((bytes.count, nil))
        bytes.append(UInt8(ascii: "["))
        JSONValue.appendInteger(Int64(index), to: &bytes)
        bytes.append(UInt8(ascii: "]"))
    }

    /// Continues from `path`, written out already (where a walk resumes inside another value).
    public func push(root path: String) {
        marks.append((0, bytes))
        bytes = Array(path.utf8)
    }

    /// Leaves the innermost component.
    public func pop() {
        let mark = marks.removeLast()
        if let replaced = mark.replaced {
            bytes = replaced
        } else {
            bytes.removeLast(bytes.count - mark.length)
        }
    }

    /// The path as text: keys joined by `.`, indexes in brackets.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
