/// One element of a compiled template. Compiled once; rendering only walks these.
enum Node: Sendable {
    case text(Text)
    case variable(Variable)
    case section(Section)
    case invertedSection(InvertedSection)
    case partial(PartialInclusion)
    case parent(ParentInclusion)
    case block(BlockSite)
}

/// A template with its display path and compiled nodes.
final class CompiledTemplate: Sendable {
    let name: String
    let path: String
    let nodes: [Node]

    init(name: String, path: String, nodes: [Node]) {
        self.name = name
        self.path = path
        self.nodes = nodes
    }
}

/// Where a tag stands, for messages raised while rendering (lambda output that does not compile).
struct SourceLocation: Sendable {
    let path: String
    let line: Int
    let column: Int
}

/// A data name: `.` (the current item), `name`, or dotted `a.b.c`.
struct Name: Sendable {
    /// The name as written, for messages.
    let text: String
    /// The first part, looked up through the context stack; empty for `.`.
    let head: String
    /// The remaining parts, each looked up in the value found before.
    let tail: [String]

    var isImplicitIterator: Bool { head.isEmpty }

    init(_ text: String) {
        self.text = text
        if text == "." {
            head = ""
            tail = []
        } else {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            head = parts[0]
            tail = Array(parts.dropFirst())
        }
    }
}

/// Literal text, and the template line starts inside it where a standalone partial's indentation goes.
struct Text: Sendable {
    /// The whole text, appended as is when there is no indentation to apply.
    let text: String
    /// `text` cut at each line start; empty when the text holds no line start.
    /// Indentation goes before every piece but the first, and before the first when `startsLine`.
    let pieces: [String]
    let startsLine: Bool
}

/// `{{name}}`, `{{{name}}}` or `{{&name}}`.
final class Variable: Sendable {
    let name: Name
    let escapesHTML: Bool
    let location: SourceLocation

    init(name: Name, escapesHTML: Bool, location: SourceLocation) {
        self.name = name
        self.escapesHTML = escapesHTML
        self.location = location
    }
}

/// `{{#name}}…{{/name}}`.
final class Section: Sendable {
    let name: Name
    let children: [Node]
    /// The unprocessed text between the tags, handed to a lambda.
    let rawText: String
    /// `rawText` compiled on its own with `delimiters`: what a lambda gets when it renders `rawText`.
    let rawTextNodes: [Node]
    /// The delimiters in effect inside the section, used to render a lambda's result.
    let delimiters: Delimiters
    let location: SourceLocation

    init(
        name: Name, children: [Node], rawText: String, rawTextNodes: [Node],
        delimiters: Delimiters, location: SourceLocation
    ) {
        self.name = name
        self.children = children
        self.rawText = rawText
        self.rawTextNodes = rawTextNodes
        self.delimiters = delimiters
        self.location = location
    }
}

/// `{{^name}}…{{/name}}`.
final class InvertedSection: Sendable {
    let name: Name
    let children: [Node]

    init(name: Name, children: [Node]) {
        self.name = name
        self.children = children
    }
}

/// The template a partial or parent tag names.
enum IncludedTemplate: Sendable {
    /// A literal name, resolved when the library was compiled; `index` is nil when it is missing.
    case named(String, index: Int?)
    /// `*name`: the template named by the string value of `name`, resolved while rendering.
    case dynamic(Name)
}

/// `{{>name}}` or `{{>*name}}`.
final class PartialInclusion: Sendable {
    let template: IncludedTemplate
    /// For a standalone tag, the whitespace before it, prepended to each line of the partial;
    /// nil for an inline tag, whose partial renders without indentation.
    let indentation: String?

    init(template: IncludedTemplate, indentation: String?) {
        self.template = template
        self.indentation = indentation
    }
}

/// `{{<name}}{{$block}}…{{/block}}{{/name}}`: a partial whose blocks are overridden.
final class ParentInclusion: Sendable {
    let template: IncludedTemplate
    let overrides: [BlockOverride]
    /// As for ``PartialInclusion/indentation``.
    let indentation: String?

    init(template: IncludedTemplate, overrides: [BlockOverride], indentation: String?) {
        self.template = template
        self.overrides = overrides
        self.indentation = indentation
    }
}

/// A `{{$name}}…{{/name}}` inside a parent tag: content replacing the parent's block of that name.
struct BlockOverride: Sendable {
    let name: String
    /// Compiled with the block's own indentation removed from each line.
    let nodes: [Node]
}

/// A `{{$name}}…{{/name}}` outside parent tags: a place an including template may override.
final class BlockSite: Sendable {
    let name: String
    let defaultNodes: [Node]
    /// Prepended to each line of whichever content renders here (the content has its own removed).
    let indentation: String
    /// Whether the content starts on a line of its own (the opening tag is standalone), so its first
    /// line is indented too.
    let startsLine: Bool

    init(name: String, defaultNodes: [Node], indentation: String, startsLine: Bool) {
        self.name = name
        self.defaultNodes = defaultNodes
        self.indentation = indentation
        self.startsLine = startsLine
    }
}
