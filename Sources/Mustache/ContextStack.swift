/// The values a template renders against: the root context, then one frame per section entered.
///
/// The frames live in memory the stack owns, next to each frame's members (empty for a frame that
/// is not an object), so a lookup reads the members in place instead of copying the frame (which
/// would retain and release its members on every probe).
struct ContextStack: ~Copyable {
    private var storage: UnsafeMutablePointer<MustacheValue>
    private var members: UnsafeMutablePointer<MustacheObject>
    private var capacity: Int
    private var count = 0

    init(frames: [MustacheValue]) {
        capacity = max(frames.count * 2, 16)
        storage = .allocate(capacity: capacity)
        members = .allocate(capacity: capacity)
        for frame in frames { push(frame) }
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
        members.deinitialize(count: count)
        members.deallocate()
    }

    /// A copy of the frames, bottom first, for a lambda to render with later.
    var frames: [MustacheValue] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }

    mutating func push(_ value: consuming MustacheValue) {
        if case .lazy(let lazy) = value { value = lazy.value }
        if count == capacity { grow() }
        if case .object(let objectMembers) = value {
            (members + count).initialize(to: objectMembers)
        } else {
            (members + count).initialize(to: MustacheObject())
        }
        (storage + count).initialize(to: value)
        count += 1
    }

    mutating func pop() {
        count -= 1
        (storage + count).deinitialize(count: 1)
        (members + count).deinitialize(count: 1)
    }

    /// Resolves a name: `.` is the top frame; otherwise the first part is looked up in each object
    /// frame from the top down, and each further part in the value found before. Nil when any part
    /// is missing (a found first part is never looked up again further down).
    ///
    /// Takes the name by pointer into its program's table so that no part of it is copied.
    func lookup(_ name: UnsafePointer<Name>) -> MustacheValue? {
        if name.pointee.isImplicitIterator { return count > 0 ? storage[count - 1] : nil }
        var index = count - 1
        while index >= 0 {
            if let member = members[index].index(of: name.pointee.head) {
                let value = members[index].members[member].value.resolved
                return name.pointee.tail.isEmpty ? value : descend(from: value, through: name.pointee.tail)
            }
            index -= 1
        }
        return nil
    }

    private func descend(from value: MustacheValue, through parts: [String]) -> MustacheValue? {
        var current = value
        for part in parts {
            guard case .object(let object) = current, let next = object[part] else { return nil }
            current = next.resolved
        }
        return current
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newStorage = UnsafeMutablePointer<MustacheValue>.allocate(capacity: newCapacity)
        newStorage.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        let newMembers = UnsafeMutablePointer<MustacheObject>.allocate(capacity: newCapacity)
        newMembers.moveInitialize(from: members, count: count)
        members.deallocate()
        members = newMembers
        capacity = newCapacity
    }
}
