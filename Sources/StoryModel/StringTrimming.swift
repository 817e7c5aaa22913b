extension String {
    /// The string without leading and trailing ASCII whitespace (space, tab, line breaks); the
    /// string itself, without a copy, when it has none.
    func trimmingWhitespace() -> String {
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last else { return self }
        guard isWhitespace(first) || isWhitespace(last) else { return self }
        // By bytes, as a tape's strings are trimmed: a space followed by a combining mark is
        // one character, and dropping characters would drop the mark too.
        return withUTF8Bytes { String(decoding: $0.trimmingWhitespace(), as: UTF8.self) }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// These UTF-8 bytes without leading and trailing ASCII whitespace, as
    /// ``Swift/String/trimmingWhitespace()`` trims a string.
    func trimmingWhitespace() -> UnsafeBufferPointer<UInt8> {
        var start = startIndex, end = endIndex
        while start < end, isWhitespace(self[start]) { start += 1 }
        while end > start, isWhitespace(self[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: self[start..<end])
    }
}

/// Space, tab, line feed, carriage return and form feed.
private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
}
