/// The values a template renders against: the root context, then one frame per section entered.
struct ContextStack {
    private(set) var frames: [MustacheValue]

    init(root: MustacheValue) {
        frames = [root]
        frames.reserveCapacity(16)
    }

    init(frames: [MustacheValue]) {
        self.frames = frames
    }

    mutating func push(_ value: MustacheValue) {
        frames.append(value)
    }

    mutating func pop() {
        frames.removeLast()
    }

    /// Resolves `name`: `.` is the top frame; otherwise the first part is looked up in each object
    /// frame from the top down, and each further part in the value found before. Nil when any part
    /// is missing (a found first part is never looked up again further down).
    func lookup(_ name: Name) -> MustacheValue? {
        if name.isImplicitIterator { return frames.last }
        var index = frames.count - 1
        while index >= 0 {
            if case .object(let members) = frames[index], let value = members[name.head] {
                return name.tail.isEmpty ? value : descend(from: value, through: name.tail)
            }
            index -= 1
        }
        return nil
    }

    private func descend(from value: MustacheValue, through parts: [String]) -> MustacheValue? {
        var current = value
        for part in parts {
            guard case .object(let members) = current, let next = members[part] else { return nil }
            current = next
        }
        return current
    }
}
