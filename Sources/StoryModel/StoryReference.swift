/// A way content refers to a story: by UUID (preferred), by slug, or by numeric id.
public enum StoryReference: Sendable, Hashable, Comparable, CustomStringConvertible {
    case uuid(String)
    case slug(String)
    case id(Int)

    public var description: String {
        switch self {
        case .uuid(let uuid): return uuid
        case .slug(let slug): return slug
        case .id(let id): return String(id)
        }
    }
}
