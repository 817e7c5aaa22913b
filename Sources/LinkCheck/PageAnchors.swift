/// The fragments that lead somewhere in a page: element `id`s and `<a name>`s, each with the
/// line of its first `id` (to report duplicates), in one table so adding an id costs one lookup.
struct PageAnchors: Sendable {
    /// Anchor → line of its first `id`, or 0 for a name given only by `<a name>`.
    private var firstLines: [ByteString: Int] = [:]

    /// Adds an element's `id`; returns the line of the same id's first occurrence when it is a duplicate.
    mutating func addID(_ id: ByteString, line: Int) -> Int? {
        guard let previous = firstLines.updateValue(line, forKey: id), previous > 0 else { return nil }
        firstLines[id] = previous
        return previous
    }

    /// Adds an `<a name>`.
    mutating func addName(_ name: ByteString) {
        if firstLines[name] == nil { firstLines[name] = 0 }
    }

    func contains(_ anchor: ByteString) -> Bool {
        firstLines[anchor] != nil
    }
}
