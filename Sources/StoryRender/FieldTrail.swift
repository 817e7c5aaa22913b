/// The path from a story's root block to the value being prepared (`body[2].columns[0].link`),
/// kept as a stack of components and turned into text only when a warning or a richtext field
/// needs it, so preparing a page builds no path strings it does not use.
final class FieldTrail {
    private enum Component {
        case key(String)
        case index(Int)
        /// A whole path that replaces what comes before it (the blocks of a richtext `blok`).
        case root(String)
    }

    private var components: [Component] = []

    init() {
        components.reserveCapacity(16)
    }

    func push(_ key: String) { components.append(.key(key)) }
    func push(index: Int) { components.append(.index(index)) }
    func push(root path: String) { components.append(.root(path)) }
    func pop() { components.removeLast() }

    var text: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            case .root(let path):
                text = path
            }
        }
        return text
    }
}
