extension Fingerprint {
    /// Combines a JSON tree by walking it, without writing it out as text first: each value
    /// with a tag for its kind, so `"1"` and `1`, or `[]` and `{}`, differ.
    public mutating func combine(_ value: JSONValue) {
        switch value {
        case .null:
            combine(0)
        case .bool(let flag):
            combine(flag ? 1 : 2)
        case .number(let number):
            combine(3)
            combine(Int64(bitPattern: number.bitPattern))
        case .string(let string):
            combine(4)
            combine(string)
        case .array(let elements):
            combine(5)
            combine(Int64(elements.count))
            for element in elements { combine(element) }
        case .object(let object):
            combine(6)
            combine(Int64(object.count))
            for entry in object.entries {
                combine(entry.key)
                combine(entry.value)
            }
        }
    }

    /// Combines the value at `index` of a tape as ``combine(_:)`` combines its tree: the same
    /// value gives the same fingerprint either way.
    public mutating func combine(_ reader: JSONTape.Reader, at index: Int) {
        switch reader.kind(at: index) {
        case .null:
            combine(0)
        case .true:
            combine(1)
        case .false:
            combine(2)
        case .number:
            combine(3)
            combine(Int64(bitPattern: reader.number(at: index)!.bitPattern))
        case .string:
            combine(4)
            combine(bytes: reader.bytes(at: index))
        case .array:
            combine(5)
            combine(Int64(reader.count(at: index)))
            reader.forEachElement(ofArray: index) { _, element in combine(reader, at: element) }
        case .object:
            combine(6)
            combine(Int64(reader.count(at: index)))
            reader.forEachEntry(ofObject: index) { key, value in
                combine(bytes: reader.bytes(at: key))
                combine(reader, at: value)
                return true
            }
        }
    }
}
