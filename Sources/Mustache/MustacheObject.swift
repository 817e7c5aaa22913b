/// The named values of an object a template reads, in the order they were added.
///
/// Kept as a plain array rather than a dictionary: a page builds hundreds of small objects
/// (blocks, links, assets) and reads each a few times, so hashing every name on insert and on
/// lookup would cost more than comparing the few names there are. An object that grows past
/// ``indexedCount`` members (a table of translations in `site`, say) gets a hash index too.
public struct MustacheObject: Sendable {
    /// One name and its value.
    public struct Member: Sendable {
        public var name: String
        public var value: MustacheValue

        public init(name: String, value: MustacheValue) {
            self.name = name
            self.value = value
        }
    }

    /// The members in the order they were added; each name appears once.
    public private(set) var members: [Member]
    /// Positions by name, once there are more than ``indexedCount`` members.
    private var positions: [String: Int]?

    /// Up to this many members, names are found by comparing them one by one.
    static let indexedCount = 32

    /// An empty object with room for `capacity` members.
    public init(minimumCapacity capacity: Int = 0) {
        members = []
        members.reserveCapacity(capacity)
    }

    /// The number of members.
    public var count: Int { members.count }

    /// The value named `name`, or nil; assigning replaces the value in place or appends a new
    /// member, and assigning nil removes the member.
    public subscript(name: String) -> MustacheValue? {
        get {
            guard let index = index(of: name) else { return nil }
            return members[index].value
        }
        set {
            if let index = index(of: name) {
                guard let newValue else {
                    members.remove(at: index)
                    positions = nil
                    indexIfLarge()
                    return
                }
                members[index].value = newValue
            } else if let newValue {
                append(new: name, newValue)
            }
        }
    }

    /// Appends a member whose name the caller knows is not present yet (the keys of one JSON
    /// object, say), skipping the search `subscript` makes.
    /// Takes both by `consuming`: its callers pass values made for it, which then need no copy.
    public mutating func append(new name: consuming String, _ value: consuming MustacheValue) {
        assert(index(of: name) == nil, "\(name) is already a member")
        if positions != nil { positions![copy name] = members.count }
        members.append(Member(name: name, value: value))
        if positions == nil { indexIfLarge() }
    }

    /// Replaces the value of the member at `position` in ``members``, keeping its name and place.
    public mutating func replaceValue(at position: Int, with value: MustacheValue) {
        members[position].value = value
    }

    private mutating func indexIfLarge() {
        guard members.count > Self.indexedCount else { return }
        positions = Dictionary(members.indices.map { (members[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @inline(__always)
    func index(of name: String) -> Int? {
        if let positions { return positions[name] }
        // Comparing lengths first keeps most mismatches off String's slow comparison path.
        let length = name.utf8.count
        return members.withUnsafeBufferPointer { members in
            for index in members.indices where members[index].name.utf8.count == length && members[index].name == name {
                return index
            }
            return nil
        }
    }
}

extension MustacheObject: ExpressibleByDictionaryLiteral {
    /// Builds an object in the literal's order; when a name repeats, the last value wins.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self.init(pairs: elements)
    }

    /// Builds an object from `pairs` in order; when a name repeats, the last value wins.
    init(pairs: [(String, MustacheValue)]) {
        self.init(minimumCapacity: pairs.count)
        for (name, value) in pairs { self[name] = value }
    }
}
