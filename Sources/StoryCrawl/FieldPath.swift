/// The path from a story's root block to the value being visited, kept as a stack of components
/// and turned into text (`body[2].columns[0].link`) only when a reference is found there.
struct FieldPath {
    private enum Component {
        case key(String)
        case index(Int)
    }

    private var components: [Component] = []

    mutating func push(_ key: String) { components.append(.key(key)) }
    mutating func push(_ index: Int) { components.append(.index(index)) }
    mutating func pop() { components.removeLast() }

    var text: String {
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
            }
        }
        return text
    }
}
