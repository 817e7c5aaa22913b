/// What a JSON object in a story's content is. The crawl (finding story references) and the
/// render (preparing values for templates) both classify with it, so the link graph and the
/// rendered page agree about what is a link, an asset or a relation.
///
/// The first rule that applies wins:
/// 1. a string `component`: a block;
/// 2. `fieldtype` `multilink`, `asset` or `table`: that field type;
/// 3. `type: "doc"`: a richtext document;
/// 4. `linktype` and `cached_url`, under any other `fieldtype` or none: a multilink;
/// 5. a string `filename`: an asset;
/// 6. `uuid`, `full_slug` and `content` that read as a ``Story``: an embedded story (a relation
///    or link the API resolved in place);
/// 7. anything else: a plain object.
public enum ContentKind: Sendable, Equatable {
    case block
    case multilink
    case asset
    case richtext
    case table
    case story(Story)
    case plain

    /// Classifies `object` in one pass over its keys, comparing only keys of a classifying
    /// length; allocates nothing unless it reads an embedded story. The walks call it for every
    /// object, so it is compiled into their modules and borrows the object rather than
    /// retaining it.
    @inlinable
    public init(_ object: borrowing JSONObject) {
        var isBlock = false, isDocument = false, hasLinktype = false, hasCachedURL = false, hasFilename = false
        var fieldtype: ContentKind?
        var storyKeys = 0
        // Through a buffer pointer, so that each entry is read in place rather than copied.
        object.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                // Keys of other lengths cannot match; most field names stop at this comparison.
                let length = entries[index].key.utf8.count
                guard length < 64, Self.classifyingKeyLengths >> length & 1 != 0 else { continue }
                switch entries[index].key {
                case "component":
                    guard case .string = entries[index].value else { continue }
                    isBlock = true
                    return  // a block, whatever else it holds
                case "fieldtype": fieldtype = Self.fieldtype(entries[index].value)
                case "type": if case .string("doc") = entries[index].value { isDocument = true }
                case "linktype": hasLinktype = true
                case "cached_url": hasCachedURL = true
                case "filename": if case .string = entries[index].value { hasFilename = true }
                case "uuid", "full_slug", "content": storyKeys += 1
                default: continue
                }
            }
        }
        if let kind = Self.decided(
            isBlock: isBlock, fieldtype: fieldtype, isDocument: isDocument, isMultilink: hasLinktype && hasCachedURL, hasFilename: hasFilename) {
            self = kind
        } else if storyKeys == 3, let story = try? Story(json: copy object) {
            self = .story(story)
        } else {
            self = .plain
        }
    }

    /// Classifies the object at `index` of `tape` by the same rules, in place: its keys are
    /// compared as bytes, and nothing is allocated unless it reads an embedded story (which
    /// keeps `tape`).
    @inlinable
    public init(_ tape: JSONTape, _ reader: JSONTape.Reader, object index: Int) {
        var isBlock = false, isDocument = false, hasLinktype = false, hasCachedURL = false, hasFilename = false
        var fieldtype: ContentKind?
        var storyKeys = 0
        reader.forEachEntry(ofObject: index) { key, value in
            let name = reader.bytes(at: key)
            guard name.count < 64, Self.classifyingKeyLengths >> name.count & 1 != 0 else { return true }
            typealias Reader = JSONTape.Reader
            if Reader.equal(name, "component") {
                guard reader.kind(at: value) == .string else { return true }
                isBlock = true
                return false  // a block, whatever else it holds
            } else if Reader.equal(name, "fieldtype") {
                fieldtype = reader.kind(at: value) == .string ? Self.fieldtype(named: reader.bytes(at: value)) : nil
            } else if Reader.equal(name, "type") {
                if reader.isString(at: value, equalTo: "doc") { isDocument = true }
            } else if Reader.equal(name, "linktype") {
                hasLinktype = true
            } else if Reader.equal(name, "cached_url") {
                hasCachedURL = true
            } else if Reader.equal(name, "filename") {
                if reader.kind(at: value) == .string { hasFilename = true }
            } else if Reader.equal(name, "uuid") || Reader.equal(name, "full_slug") || Reader.equal(name, "content") {
                storyKeys += 1
            }
            return true
        }
        if let kind = Self.decided(
            isBlock: isBlock, fieldtype: fieldtype, isDocument: isDocument, isMultilink: hasLinktype && hasCachedURL, hasFilename: hasFilename) {
            self = kind
        } else if storyKeys == 3, let story = try? Story(tape: tape, at: index) {
            self = .story(story)
        } else {
            self = .plain
        }
    }

    /// Rules 1 to 5, in order, over what a pass over an object's keys found; nil when none
    /// applies, and the object is an embedded story or plain.
    @inlinable
    static func decided(isBlock: Bool, fieldtype: ContentKind?, isDocument: Bool, isMultilink: Bool, hasFilename: Bool) -> ContentKind? {
        if isBlock { return .block }
        if let fieldtype { return fieldtype }
        if isDocument { return .richtext }
        if isMultilink { return .multilink }
        if hasFilename { return .asset }
        return nil
    }

    /// The kind a `fieldtype` string of these bytes names, when it is one the rules know.
    @usableFromInline
    static func fieldtype(named name: UnsafeBufferPointer<UInt8>) -> ContentKind? {
        if JSONTape.Reader.equal(name, "multilink") { return .multilink }
        if JSONTape.Reader.equal(name, "asset") { return .asset }
        if JSONTape.Reader.equal(name, "table") { return .table }
        return nil
    }

    /// The kind a `fieldtype` value names, when it is one the rules know.
    @usableFromInline
    static func fieldtype(_ value: JSONValue) -> ContentKind? {
        guard case .string(let name) = value else { return nil }
        return name.utf8.withContiguousStorageIfAvailable(fieldtype(named:)) ?? nil
    }

    /// The lengths of the keys objects are classified by, as bits: `type`, `uuid`; `content`;
    /// `linktype`, `filename`; `component`, `fieldtype`, `full_slug`; `cached_url`.
    @usableFromInline
    static let classifyingKeyLengths: UInt64 = 1 << 4 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10
}

/// What the value of a block field is, by its key and value. An object value is classified
/// further with ``ContentKind``.
///
/// - `_uid`, `_editable`, `component` and `uuid` identify the block: bookkeeping, whatever they
///   hold.
/// - A UUID-shaped string is a relation (an option field whose source is stories).
/// - A non-empty array whose every element is a UUID-shaped string is a list of relations; an
///   array mixing UUIDs with other values is an ordinary value (a multi-option field whose own
///   options happen to look like UUIDs is not a story list).
public enum FieldKind: Sendable, Equatable {
    /// The block's identity: shown as it is, never a reference.
    case bookkeeping
    /// One story UUID.
    case relation(String)
    /// Story UUIDs, each element a UUID-shaped string, in order.
    case relations([JSONValue])
    /// Anything else: a scalar, a string, an array of values, an object.
    case value

    /// Classifies the field `key` holding `value`; compiled into the walks, like
    /// ``ContentKind/init(_:)``.
    @inlinable
    public init(key: String, value: JSONValue) {
        if Self.isBookkeeping(key) {
            self = .bookkeeping
            return
        }
        switch value {
        case .string(let string) where StoryReference.isUUIDShaped(string):
            self = .relation(string)
        case .array(let elements) where !elements.isEmpty && elements.allSatisfy(Self.isUUIDString):
            self = .relations(elements)
        default:
            self = .value
        }
    }

    /// Classifies the field whose key has the bytes `key` and whose value is at `value` of a
    /// tape, by the same rules, in place; the strings of relations are made, nothing else.
    public init(_ reader: JSONTape.Reader, key: UnsafeBufferPointer<UInt8>, value: Int) {
        if Self.isBookkeeping(bytes: key) {
            self = .bookkeeping
            return
        }
        switch reader.kind(at: value) {
        case .string where StoryReference.isUUIDShaped(reader.bytes(at: value)):
            self = .relation(reader.string(at: value)!)
        case .array where reader.count(at: value) > 0:
            var uuids: [JSONValue] = []
            reader.forEachElement(ofArray: value) { position, element in
                // Stops adding at the first element that is not a UUID string.
                guard uuids.count == position, reader.kind(at: element) == .string, StoryReference.isUUIDShaped(reader.bytes(at: element)) else { return }
                uuids.append(.string(reader.string(at: element)!))
            }
            self = uuids.count == reader.count(at: value) ? .relations(uuids) : .value
        default:
            self = .value
        }
    }

    /// Whether `key` names a block's identity rather than its content.
    @usableFromInline
    static func isBookkeeping(_ key: String) -> Bool {
        switch key.utf8.count {
        case 4, 9: return key.utf8.withContiguousStorageIfAvailable(isBookkeeping(bytes:)) ?? false
        default: return false
        }
    }

    /// Whether a key of these bytes names a block's identity rather than its content.
    public static func isBookkeeping(bytes key: UnsafeBufferPointer<UInt8>) -> Bool {
        typealias Reader = JSONTape.Reader
        switch key.count {
        case 4: return Reader.equal(key, "_uid") || Reader.equal(key, "uuid")
        case 9: return Reader.equal(key, "component") || Reader.equal(key, "_editable")
        default: return false
        }
    }

    @usableFromInline
    static func isUUIDString(_ value: JSONValue) -> Bool {
        guard case .string(let string) = value else { return false }
        return StoryReference.isUUIDShaped(string)
    }
}
