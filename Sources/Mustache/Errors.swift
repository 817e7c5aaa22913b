/// A problem in a template's source, at the position of the offending tag's opening delimiter.
///
/// Reads like a compiler diagnostic:
/// `Templates/components/grid.mustache:12:5: error: section 'columns' opened here is never closed`.
public struct TemplateError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file as shown to users: for a folder library, the folder's relative path, `/`, and the
    /// file's path inside it; for in-memory templates, the template name.
    public var path: String
    /// 1-based line; 0 when the problem concerns the whole file or folder.
    public var line: Int
    /// 1-based column in characters; 0 when the problem concerns the whole file or folder.
    public var column: Int
    /// What is wrong, in a sentence without a final period.
    public var message: String

    /// A problem at `line` and `column` (both 0 for the whole file) of the file shown as `path`.
    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `path:line:column: error: message`, or `path: error: message` for the whole file.
    public var description: String {
        line > 0
            ? "\(path):\(line):\(column): error: \(message)"
            : "\(path): error: \(message)"
    }
}

/// Every problem found while compiling a library, sorted by path and position.
public struct TemplateErrors: Error, CustomStringConvertible, Sendable {
    /// The problems, sorted by path, line and column.
    public var errors: [TemplateError]

    /// Wraps `errors`, which the library passes sorted.
    public init(errors: [TemplateError]) {
        self.errors = errors
    }

    /// One diagnostic per line.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}

/// A problem met while rendering a template that compiled.
public enum RenderError: Error, CustomStringConvertible, Sendable, Equatable {
    /// `render(_:)` was asked for a name the library does not hold.
    case unknownTemplate(String)
    /// Partials, parents and lambdas nested deeper than ``TemplateLibrary/maximumNesting``:
    /// almost certainly a template that includes itself without end. Lists the ten innermost
    /// templates (and lambdas), outermost first, which show the cycle.
    case nestingTooDeep(templates: [String])

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .unknownTemplate(let name):
            "no template named '\(name)'"
        case .nestingTooDeep(let templates):
            "partials nest deeper than \(TemplateLibrary.maximumNesting) levels "
                + "(does a template include itself?): "
                + templates.joined(separator: " > ")
        }
    }
}

/// A partial or parent tag that names no template: not an error (it renders as nothing, as the
/// spec asks), but worth a warning, once, where the tag stands.
public struct MissingPartialTag: Sendable, Equatable {
    /// The name as written in the tag (`header` in `{{>header}}`).
    public var name: String
    /// The file as shown to users, as in ``TemplateError/path``.
    public var path: String
    public var line: Int
    public var column: Int
    /// What is wrong, in a sentence without a final period.
    public var message: String
}
