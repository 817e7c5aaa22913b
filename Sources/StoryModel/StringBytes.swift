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
