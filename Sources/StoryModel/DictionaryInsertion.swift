extension Dictionary {
    /// Sets `value` for `key` unless the dictionary has one for it already, which it keeps;
    /// returns whether it set it. One lookup when the key is new: `if self[key] == nil { self[key]
    /// = value }` hashed every key twice, and the tables of slugs a build makes hash one per story.
    @inlinable
    @discardableResult
    public mutating func insertIfAbsent(_ value: Value, forKey key: Key) -> Bool {
        guard let earlier = updateValue(value, forKey: key) else { return true }
        self[key] = earlier
        return false
    }
}
