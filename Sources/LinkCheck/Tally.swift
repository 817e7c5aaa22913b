/// Items in order of first occurrence, one per key, each with how often it occurred: how a
/// page's links become one finding per (resolved target, reason).
struct Tally<Key: Hashable & Sendable, Item: Sendable>: Sendable {
    private(set) var entries: [(item: Item, occurrences: Int)] = []
    private var positions: [Key: Int] = [:]

    /// Counts one occurrence of `key`, making its item on the first.
    mutating func add(_ key: Key, _ makeItem: () -> Item) {
        if let position = positions[key] {
            entries[position].occurrences += 1
        } else {
            positions[key] = entries.count
            entries.append((makeItem(), 1))
        }
    }
}
