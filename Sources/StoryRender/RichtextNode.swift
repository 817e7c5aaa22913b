import StoryModel

/// The fields of one richtext node, read in a single pass over its keys (the renderer looks at
/// each field of each node, and keyed lookups would scan the keys every time).
struct RichtextNode {
    var type: String?
    var text: String?
    var attrs: JSONObject?
    var content: [JSONValue] = []
    var marks: [JSONValue] = []
    /// The attributes of the node's link mark (empty when the mark has none) and the mark's
    /// index among ``marks``; nil unless this is a text node with a link.
    var link: (attrs: JSONObject, index: Int)?

    /// Reads `value`; nil when it is not an object.
    init?(_ value: JSONValue) {
        guard case .object(let object) = value else { return nil }
        // Keys are compared in place; only the values kept are copied out.
        object.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                switch entries[index].key {
                case "type": type = entries[index].value.stringValue
                case "text": text = entries[index].value.stringValue
                case "attrs": attrs = entries[index].value.objectValue
                case "content": content = entries[index].value.arrayValue ?? []
                case "marks": marks = entries[index].value.arrayValue ?? []
                default: continue
                }
            }
        }
        guard type == "text", !marks.isEmpty else { return }
        for (index, mark) in marks.enumerated() {
            guard case .object(let mark) = mark else { continue }
            let (markType, markAttrs) = Self.typeAndAttrs(of: mark)
            if markType == "link" {
                link = (markAttrs ?? JSONObject(), index)
                return
            }
        }
    }

    /// A mark's (or node's) `type` and `attrs`, in one pass.
    static func typeAndAttrs(of object: JSONObject) -> (type: String?, attrs: JSONObject?) {
        var type: String?
        var attrs: JSONObject?
        for entry in object.entries {
            switch entry.key {
            case "type": type = entry.value.stringValue
            case "attrs": attrs = entry.value.objectValue
            default: continue
            }
        }
        return (type, attrs)
    }
}
