/// The path from a story's root block to the value being visited (`body[2].columns[0].link`),
/// kept as the bytes of its text, each push appending to them and each pop cutting them back, so
/// that a walk makes no string for each field it passes and only one for each path it needs:
/// when a reference is found (crawl) or a warning is reported (render). Shared by every walk
/// over a block tree so their paths always agree.
public final class FieldPath {
    // Pushed and popped for every value a walk visits (a million times in a build of 10,000
    // stories), so the text and the marks are buffers of their own: an array's append checks
    // that it is the storage's only owner through a runtime call each time. For the same
    // reason the properties are unchecked: the runtime check of exclusive access costs as much
    // as the push itself, and a path is never shared across threads nor touched re-entrantly.

    /// The text so far: `count` bytes at `bytes`, which has room for `capacity`.
    @exclusivity(unchecked) private var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var capacity = 128
    /// For each component pushed, how long the text was before it; for a root, the bitwise
    /// complement of where in `replaced` the text it replaced is.
    @exclusivity(unchecked) private var marks: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var markCount = 0
    @exclusivity(unchecked) private var markCapacity = 16
    @exclusivity(unchecked) private var replaced: [[UInt8]] = []

    public init() {
        bytes = .allocate(capacity: capacity)
        marks = .allocate(capacity: markCapacity)
    }

    deinit {
        bytes.deallocate()
        marks.deallocate()
    }

    /// Enters the field `key`.
    public func push(_ key: String) {
        var key = key  // withUTF8 may make the storage contiguous, so it needs a var
        key.withUTF8 { push(key: $0) }
    }

    /// Enters the field whose name has the UTF-8 bytes `key`.
    public func push(key: UnsafeBufferPointer<UInt8>) {
        pushMark(count)
        makeRoom(for: key.count + 1)
        if count > 0 {
            bytes[count] = UInt8(ascii: ".")
            count += 1
        }
        append(key)
    }

    /// Enters the element at `index`.
    public func push(index: Int) {
        pushMark(count)
        JSONValue.withDecimalDigits(of: Int64(index)) { digits in
            makeRoom(for: digits.count + 2)
            bytes[count] = UInt8(ascii: "[")
            count += 1
            append(digits)
            bytes[count] = UInt8(ascii: "]")
            count += 1
        }
    }

    /// Continues from `path`, written out already (where a walk resumes inside another value).
    public func push(root path: String) {
        pushMark(~replaced.count)
        replaced.append(Array(UnsafeBufferPointer(start: bytes, count: count)))
        count = 0
        path.withUTF8Bytes { append($0) }
    }

    /// Leaves the innermost component.
    public func pop() {
        precondition(markCount > 0, "a pop without a push")
        markCount -= 1
        let mark = marks[markCount]
        if mark >= 0 {
            count = mark
        } else {
            count = 0
            replaced.removeLast().withUnsafeBufferPointer { append($0) }
        }
    }

    /// The path as text: keys joined by `.`, indexes in brackets.
    public var text: String { String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) }

    private func pushMark(_ mark: Int) {
        if markCount == markCapacity {
            marks = Self.grown(marks, count: markCount, to: markCapacity * 2)
            markCapacity *= 2
        }
        marks[markCount] = mark
        markCount += 1
    }

    /// Appends `text`, for which there may not be room yet.
    private func append(_ text: UnsafeBufferPointer<UInt8>) {
        guard let source = text.baseAddress else { return }
        makeRoom(for: text.count)
        (bytes + count).initialize(from: source, count: text.count)
        count += text.count
    }

    private func makeRoom(for extra: Int) {
        guard count + extra > capacity else { return }
        let newCapacity = max(capacity * 2, count + extra)
        bytes = Self.grown(bytes, count: count, to: newCapacity)
        capacity = newCapacity
    }

    /// A buffer of `capacity` holding the first `count` elements of `buffer`, which it frees.
    private static func grown<Element>(_ buffer: UnsafeMutablePointer<Element>, count: Int, to capacity: Int) -> UnsafeMutablePointer<Element> {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        larger.moveInitialize(from: buffer, count: count)
        buffer.deallocate()
        return larger
    }
}
