extension StringProtocol {
    /// The text without leading and trailing whitespace (spaces, tabs, line breaks).
    func trimmingWhitespace() -> SubSequence {
        var text = self[...]
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}
