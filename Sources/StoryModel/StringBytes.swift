extension String {
    /// Calls `body` with the string's UTF-8 bytes, in place where they are contiguous (a native
    /// string's are), else copied. A loop over `utf8` a byte at a time took fifty instructions a
    /// byte; paths that every page or story file passes through are read this way.
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }
}
