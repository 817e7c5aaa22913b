/// The path from a story's root block to the value being visited (`body[2].columns[0].link`),
/// kept as a stack of components and turned into text only when it is needed: when a reference
/// is found (crawl) or a warning is reported (render). Shared by every walk over a block tree so
/// their paths always agree.
public final class FieldPath {
    private enum Component {
        case key(String)
        case index(Int)
        /// A whole path that replaces what comes before it (the blocks of a richtext `blok`).
        case root(String)
    }

    /// Pushed and popped for every value a walk visits; unchecked, because the runtime check of
    /// exclusive access costs as much as the push itself, and a path is never shared across
    /// threads nor touched re-entrantly.
    @exclusivity(unchecked) private var components: [Component] = []

    public init() {
        components.reserveCapacity(16)
    }

    /// Enters the field `key`.
    public func push(_ key: String) { components.append(.key(key)) }
    /// Enters the element at `index`.
    public func push(index: Int) { components.append(.index(index)) }
    /// Continues from `path`, written out already (where a walk resumes inside another value).
    public func push(root path: String) { components.append(.root(path)) }
    /// Leaves the innermost component.
    public func pop() { components.removeLast() }

    /// The path as text: keys joined by `.`, indexes in brackets.
    public var text: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "["
                text += String(index)
                text += "]"
            case .root(let path):
                text = path
            }
        }
        return text
    }
}
