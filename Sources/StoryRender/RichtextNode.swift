import StoryModel

/// The fields of one richtext node on a tape, read in a single pass over its keys (the renderer
/// looks at each field of each node, and keyed lookups would scan the keys every time). Values
/// are their indices in the tape, each only when it has the kind the renderer reads it as.
struct RichtextNode {
    /// What `type` names; nil when the node has no `type` string.
    var type: NodeType?
    /// A string.
    var text: Int?
    /// An object.
    var attrs: Int?
    /// An array.
    var content: Int?
    /// An array.
    var marks: Int?
    /// The node's link mark, when this is a text node with one.
    var link: Link?

    /// The node types the renderer writes markup of; `other` for the rest (`doc` among them).
    enum NodeType {
        case text, paragraph, heading, blockquote, bulletList, orderedList, listItem, codeBlock, hardBreak, horizontalRule
        case image, emoji, table, tableRow, tableCell, tableHeader, blok, other

        /// The type of a `type` string's bytes, told apart without making a string.
        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            typealias Reader = JSONTape.Reader
            self = Self.named.first { Reader.equal(bytes, $0.name) }?.type ?? .other
        }

        private static let named: [(name: StaticString, type: NodeType)] = [
            ("text", .text), ("paragraph", .paragraph), ("heading", .heading), ("blockquote", .blockquote),
            ("bullet_list", .bulletList), ("ordered_list", .orderedList), ("list_item", .listItem), ("code_block", .codeBlock),
            ("hard_break", .hardBreak), ("horizontal_rule", .horizontalRule), ("image", .image), ("emoji", .emoji),
            ("table", .table), ("tableRow", .tableRow), ("tableCell", .tableCell), ("tableHeader", .tableHeader), ("blok", .blok),
        ]
    }

    /// A text node's first link mark: its attributes (nil when it has none, which reads as an
    /// empty object) and its index among the node's marks.
    struct Link {
        var attrs: Int?
        var index: Int
    }

    /// Reads the node at `index`; nil when it is not an object.
    init?(_ reader: JSONTape.Reader, at index: Int) {
        guard reader.kind(at: index) == .object else { return nil }
        typealias Reader = JSONTape.Reader
        reader.forEachEntry(ofObject: index) { key, value in
            let name = reader.bytes(at: key)
            if Reader.equal(name, "type") {
                type = reader.kind(at: value) == .string ? NodeType(reader.bytes(at: value)) : nil
            } else if Reader.equal(name, "text") {
                text = reader.kind(at: value) == .string ? value : nil
            } else if Reader.equal(name, "attrs") {
                attrs = reader.kind(at: value) == .object ? value : nil
            } else if Reader.equal(name, "content") {
                content = reader.kind(at: value) == .array ? value : nil
            } else if Reader.equal(name, "marks") {
                marks = reader.kind(at: value) == .array ? value : nil
            }
            return true
        }
        guard type == .text, let marks else { return }
        var mark = marks + 1
        for position in 0..<reader.count(at: marks) {
            if reader.kind(at: mark) == .object {
                let (markType, markAttrs) = Self.typeAndAttrs(reader, of: mark)
                if let markType, Reader.equal(reader.bytes(at: markType), "link") {
                    link = Link(attrs: markAttrs, index: position)
                    return
                }
            }
            mark = reader.next(after: mark)
        }
    }

    /// A mark's `type` (when a string: its index) and `attrs` (when an object), in one pass.
    static func typeAndAttrs(_ reader: JSONTape.Reader, of object: Int) -> (type: Int?, attrs: Int?) {
        var type: Int?
        var attrs: Int?
        reader.forEachEntry(ofObject: object) { key, value in
            let name = reader.bytes(at: key)
            if JSONTape.Reader.equal(name, "type") {
                type = reader.kind(at: value) == .string ? value : nil
            } else if JSONTape.Reader.equal(name, "attrs") {
                attrs = reader.kind(at: value) == .object ? value : nil
            }
            return true
        }
        return (type, attrs)
    }
}
