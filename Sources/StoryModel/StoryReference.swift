/// A way content refers to a story: by UUID (preferred), by slug, or by numeric id.
public enum StoryReference: Sendable, Hashable, Comparable, CustomStringConvertible {
    case uuid(String)
    case slug(String)
    case id(Int)

    /// Reads a reference typed by a person (an entry on the command line, say): a UUID-shaped
    /// string is a UUID, anything else a slug (leading `/` removed).
    public init(parsing text: String) {
        if Self.isUUIDShaped(text) {
            self = .uuid(text)
        } else {
            self = .slug(Story.normalizedSlug(text))
        }
    }

    public var description: String {
        switch self {
        case .uuid(let uuid): return uuid
        case .slug(let slug): return slug
        case .id(let id): return String(id)
        }
    }

    /// Whether `text` has the 8-4-4-4-12 hexadecimal shape of a UUID (either case). Option
    /// fields holding such strings are story references.
    public static func isUUIDShaped(_ text: String) -> Bool {
        isUUIDShaped(text.utf8)
    }

    /// ``isUUIDShaped(_:)`` of a string's UTF-8 bytes.
    public static func isUUIDShaped(_ utf8: some Collection<UInt8>) -> Bool {
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                if byte != UInt8(ascii: "-") { return false }
            default:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                     UInt8(ascii: "A")...UInt8(ascii: "F"):
                    continue
                default:
                    return false
                }
            }
        }
        return true
    }
}
