/// A growable run of bytes in memory it owns, appended to by copying.
///
/// Rendering appends thousands of short pieces per page; this does each with one bounds check and
/// one copy, which `Array.append(contentsOf:)` and `String.append` do not.
struct ByteBuffer: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let newCount = count + bytes.count
        if newCount > capacity { grow(toAtLeast: newCount) }
        (storage + count).initialize(from: source, count: bytes.count)
        count = newCount
    }

    mutating func append(_ text: consuming String) {
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { append($0) }
        if appended == nil {
            Array(text.utf8).withUnsafeBufferPointer { append($0) }
        }
    }

    /// Appends the bytes of `other` from `start` on.
    mutating func append(_ other: borrowing ByteBuffer, from start: Int) {
        append(UnsafeBufferPointer(start: other.storage + start, count: other.count - start))
    }

    /// The text after the last `byte` or `other` among the final `limit` bytes; empty when
    /// neither is there.
    func text(afterLast byte: UInt8, or other: UInt8, within limit: Int) -> String {
        var index = count - 1
        while index >= max(0, count - limit) {
            if storage[index] == byte || storage[index] == other {
                return String(decoding: UnsafeBufferPointer(start: storage + index + 1, count: count - index - 1), as: UTF8.self)
            }
            index -= 1
        }
        return ""
    }

    /// Drops the bytes from `newCount` on.
    mutating func removeLast(from newCount: Int) {
        count = newCount
    }

    /// The bytes as a String (invalid UTF-8, which rendering never produces, would be repaired).
    ///
    /// `String(decoding:as:)` checks an all-ASCII buffer word by word, but validates any other
    /// buffer byte by byte, several times slower. A page is mostly ASCII with some other characters
    /// here and there, so long ASCII runs are converted on their own and only the stretches around
    /// other characters are validated; text dense with other characters is converted in one go.
    func makeString() -> String {
        let bytes = UnsafeBufferPointer(start: storage, count: count)
        var asciiStart = 0
        var otherStart = Self.firstNonASCII(in: bytes, from: 0)
        if otherStart == count { return String(decoding: bytes, as: UTF8.self) }
        var result = ""
        result.reserveCapacity(count)
        while true {
            result += String(decoding: UnsafeBufferPointer(rebasing: bytes[asciiStart..<otherStart]), as: UTF8.self)
            guard otherStart < count else { break }
            guard let nextASCIIRun = Self.longASCIIRun(in: bytes, from: otherStart) else {
                result += String(decoding: UnsafeBufferPointer(rebasing: bytes[otherStart...]), as: UTF8.self)
                break
            }
            result += String(decoding: UnsafeBufferPointer(rebasing: bytes[otherStart..<nextASCIIRun]), as: UTF8.self)
            asciiStart = nextASCIIRun
            otherStart = Self.firstNonASCII(in: bytes, from: nextASCIIRun)
        }
        return result
    }

    /// An ASCII run this long is worth converting on its own.
    private static let longASCIIRunLength = 256
    /// How far to look for a long ASCII run before treating the rest as dense with other characters.
    private static let longASCIIRunSearchLimit = 2048

    /// The offset of the next ASCII run of at least ``longASCIIRunLength`` bytes (or reaching the
    /// end), if one starts within ``longASCIIRunSearchLimit`` bytes of `start`.
    private static func longASCIIRun(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        var runStart = start
        let limit = min(bytes.count, start + longASCIIRunSearchLimit)
        while index < limit {
            if bytes[index] >= 0x80 {
                index += 1
                runStart = index
            } else if index - runStart >= 16 {
                // Probably a long run: measure it word by word.
                let runEnd = firstNonASCII(in: bytes, from: index)
                if runEnd - runStart >= longASCIIRunLength || runEnd == bytes.count { return runStart }
                index = runEnd
            } else {
                index += 1
            }
        }
        return index == bytes.count ? runStart : nil
    }

    /// The offset of the first byte at or after `start` that is not ASCII, or `bytes.count`.
    private static func firstNonASCII(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= bytes.count,
            raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
            index += 8
        }
        while index < bytes.count, bytes[index] < 0x80 { index += 1 }
        return index
    }

    private mutating func grow(toAtLeast minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.initialize(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }
}
