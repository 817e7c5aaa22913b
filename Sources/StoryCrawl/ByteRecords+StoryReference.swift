import StoryModel

extension ByteRecordWriter {
    /// A story reference: `0` and a UUID, `1` and a slug, or `2` and an id. The UUID or slug
    /// is written in place, not in the table: a cache names thousands of targets, each only a
    /// few times, and looking every one up in a table that large cost more than the bytes saved.
    mutating func reference(_ reference: StoryReference) {
        switch reference {
        case .uuid(let uuid): number(0); inlineString(uuid)
        case .slug(let slug): number(1); inlineString(slug)
        case .id(let id): number(2); number(id)
        }
    }

    /// A reference's kind, as its ``ReferenceKind/code``.
    mutating func kind(_ kind: ReferenceKind) {
        number(Int(kind.code))
    }
}

extension ByteRecordReader {
    /// A story reference as ``ByteRecordWriter/reference(_:)`` wrote it; nil when unreadable.
    mutating func reference() -> StoryReference? {
        switch number() {
        case 0: return inlineString().map(StoryReference.uuid)
        case 1: return inlineString().map(StoryReference.slug)
        case 2: return int().map(StoryReference.id)
        default: return nil
        }
    }

    /// A reference's kind as ``ByteRecordWriter/kind(_:)`` wrote it; nil when unreadable.
    mutating func kind() -> ReferenceKind? {
        number().flatMap { UInt8(exactly: $0) }.flatMap(ReferenceKind.init(code:))
    }
}
