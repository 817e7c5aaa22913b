/// A JSON document as a tree: how storysite keeps story content, so that templates can read any
/// field and the pipeline interprets only what it needs.
///
/// Objects keep their keys in document order (see ``JSONObject``), which makes reference extraction,
/// field paths and output deterministic.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value of `key` when this is an object; nil otherwise or when absent.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The object, when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The number, when this is a number or a string holding one (content often stores numbers as strings).
    public var numberValue: Double? {
        switch self {
        case .number(let number): return number
        case .string(let string): return Double(string)
        default: return nil
        }
    }

    /// The boolean, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// A JSON object whose keys keep their document order. Lookup is a linear scan, which is faster
/// than hashing for the small objects content is made of.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
    /// One key and its value.
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The entries in document order.
    public private(set) var entries: [Entry]

    /// Creates an object from entries; a later entry with a key already present replaces the
    /// earlier value in place (as JSON parsers conventionally do).
    public init(_ entries: [Entry] = []) {
        self.entries = []
        self.entries.reserveCapacity(entries.count)
        for entry in entries { self[entry.key] = entry.value }
    }

    /// Creates an object from entries whose keys are known to be distinct (taken from a
    /// dictionary, say), without the check for repeated keys that costs a scan per entry.
    public init(distinctEntries entries: [Entry]) {
        self.entries = entries
    }

    /// Creates an object from key–value pairs in order.
    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        self.init(pairs.map { Entry(key: $0.key, value: $0.value) })
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Entry { entries[position] }

    /// The keys in document order.
    public var keys: [String] { entries.map(\.key) }

    /// The value for `key`, or nil; assigning nil removes the key.
    public subscript(key: String) -> JSONValue? {
        get {
            // Comparing lengths first keeps most mismatches off String's slow comparison path.
            let length = key.utf8.count
            for entry in entries where entry.key.utf8.count == length && entry.key == key { return entry.value }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// Appends an entry without checking for an existing key; for parsers that know keys are new.
    mutating func appendUnchecked(_ entry: Entry) {
        entries.append(entry)
    }
}
