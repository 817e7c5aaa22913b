#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Calls `body` with the string's UTF-8 bytes, in place where they are contiguous (a native
    /// string's are), else copied. A loop over `utf8` a byte at a time took fifty instructions a
    /// byte; paths that every page or story file passes through are read this way. Inlinable,
    /// so that each caller gets it specialized: called generically from another module, it
    /// looked up `Optional<Result>`'s metadata on every call, a thousand instructions each.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }

    /// `first`, `second` and `third` one after the other, made at their length at once: `a + b`
    /// grows a copy of `a` for each part after it, about 450 instructions an append, and a
    /// rebuild of 10,000 pages made a path so for every page and story file several times over.
    public init(concatenating first: String, _ second: String, _ third: String = "") {
        let (firstCount, secondCount) = (first.utf8.count, second.utf8.count)
        let count = firstCount + secondCount + third.utf8.count
        self.init(unsafeUninitializedCapacity: count) { buffer in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            first.withUTF8Bytes { bytes.copyMemory(from: UnsafeRawBufferPointer($0)) }
            second.withUTF8Bytes { UnsafeMutableRawBufferPointer(rebasing: bytes[firstCount...]).copyMemory(from: UnsafeRawBufferPointer($0)) }
            third.withUTF8Bytes {
                UnsafeMutableRawBufferPointer(rebasing: bytes[(firstCount + secondCount)...]).copyMemory(from: UnsafeRawBufferPointer($0))
            }
            return count
        }
    }

    /// Whether the two strings have the same UTF-8 bytes (Swift's `==` calls canonically
    /// equivalent strings equal, where a file system holds two names).
    public func hasSameUTF8(as other: String) -> Bool {
        withUTF8Bytes { bytes in
            other.withUTF8Bytes { otherBytes in
                bytes.count == otherBytes.count && (bytes.isEmpty || memcmp(bytes.baseAddress!, otherBytes.baseAddress!, bytes.count) == 0)
            }
        }
    }

    /// The parts of a path between its `/` bytes, as the file system splits it: a `/` followed
    /// by a combining mark is one `Character` with it, so a split by characters does not see it.
    /// Each part is whole characters, since `/` is never part of another one.
    public func partsBetweenSlashes(omittingEmpty: Bool = true) -> [Substring] {
        utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: omittingEmpty).map(Substring.init)
    }
}
