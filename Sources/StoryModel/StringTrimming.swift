extension String {
    /// The string without leading and trailing ASCII whitespace (space, tab, line breaks); the
    /// string itself, without a copy, when it has none.
    func trimmingWhitespace() -> String {
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last else { return self }
        guard Self.isWhitespace(first) || Self.isWhitespace(last) else { return self }
        var text = Substring(self)
        while let byte = text.utf8.first, Self.isWhitespace(byte) { text = text.dropFirst() }
        while let byte = text.utf8.last, Self.isWhitespace(byte) { text = text.dropLast() }
        return String(text)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
}
