import Foundation

extension String {
    /// The text of a section without leading and trailing white space and line breaks (as
    /// Foundation's `.whitespacesAndNewlines` has them); the string itself when it starts and
    /// ends with a visible ASCII character, as nearly every one does, sparing the trip through
    /// Foundation's string bridging.
    func trimmingSectionWhitespace() -> String {
        let visible: ClosedRange<UInt8> = 0x21...0x7E
        if let first = utf8.first, let last = utf8.last, visible.contains(first), visible.contains(last) { return self }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
