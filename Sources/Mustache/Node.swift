/// One step of a compiled template.
///
/// Nodes hold only plain values (indices into their ``Program``'s tables), so walking a template
/// copies no references and costs no reference counting.
enum Node {
    case text(TextSpan)
    case variable(VariableNode)
    case section(SectionNode)
    case invertedSection(InvertedSectionNode)
    case partial(PartialNode)
    case parent(ParentNode)
    case block(BlockNode)
}

/// A contiguous run of nodes in a program: a template's, a section's or a block's content.
struct NodeRange {
    let start: Int32
    let end: Int32
}

/// Bytes in a program's text table: static text or an indentation.
struct ByteRange {
    let start: Int32
    let end: Int32
}

/// Static text, and the template line starts inside it where a standalone partial's indentation goes.
struct TextSpan {
    let bytes: ByteRange
    /// Entries of the program's line-start table: offsets into the text table, from `bytes.start`
    /// through `bytes.end`.
    let lineStarts: Range<Int32>
}

/// `{{name}}`, `{{{name}}}` or `{{&name}}`.
struct VariableNode {
    /// Index in the program's name table.
    let name: Int32
    let escapesHTML: Bool
    /// Index in the program's tag table, for a lambda called here (and a URL refused here).
    let tag: Int32
    /// Set when the variable writes the start of a URL attribute's value (`href="{{link}}"`),
    /// where ``URLPolicy/filtered`` checks what it writes.
    let urlAttribute: URLAttributeStart?
}

/// `{{#name}}…{{/name}}`.
struct SectionNode {
    let name: Int32
    let body: NodeRange
    /// Index in the program's tag table, for a lambda called here.
    let tag: Int32
}

/// `{{^name}}…{{/name}}`.
struct InvertedSectionNode {
    let name: Int32
    let body: NodeRange
}

/// The template a partial or parent tag names.
enum TemplateReference {
    /// A literal name found in the library: the index of the template.
    case resolved(Int32)
    /// A literal name the library does not hold: its index in the program's missing-name table.
    case missing(Int32)
    /// `*name`: the template named by the string value of `name` (an index in the name table),
    /// resolved while rendering.
    case dynamic(Int32)
}

/// `{{>name}}` or `{{>*name}}`.
struct PartialNode {
    let template: TemplateReference
    /// For a standalone tag, the whitespace before it, prepended to each line of the partial;
    /// nil for an inline tag, whose partial renders without indentation.
    let indentation: ByteRange?
}

/// `{{<name}}{{$block}}…{{/block}}{{/name}}`: a partial whose blocks are overridden.
struct ParentNode {
    let template: TemplateReference
    /// Entries of the program's override table.
    let overrides: Range<Int32>
    /// As for ``PartialNode/indentation``.
    let indentation: ByteRange?
}

/// A `{{$name}}…{{/name}}` inside a parent tag: content replacing the parent's block of that name.
struct BlockOverride {
    /// The block name's library-wide number.
    let name: Int32
    /// Compiled with the block's own indentation removed from each line.
    let body: NodeRange
}

/// A `{{$name}}…{{/name}}` outside parent tags: a place an including template may override.
struct BlockNode {
    /// The block name's library-wide number.
    let name: Int32
    let defaultBody: NodeRange
    /// Prepended to each line of whichever content renders here (the content has its own removed).
    let indentation: ByteRange
    /// Whether the content starts on a line of its own (the opening tag is standalone), so its first
    /// line is indented too.
    let startsLine: Bool
}

/// A data name: `.` (the current item), `name`, or dotted `a.b.c`.
struct Name {
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

/// Where a variable or section tag stands, and what a lambda called there needs.
struct TagSource: Sendable {
    let path: String
    let line: Int
    let column: Int
    /// For a section: where the unprocessed text between the tags, handed to a lambda, stands in
    /// the program's source ``source``. Made into a string, and compiled, only when a lambda asks.
    let rawText: Range<Int>?
    /// Index of the template source in the program's ``Program/sources``.
    let source: Int32
    /// The delimiters in effect inside a section, used to render a lambda's result.
    let delimiters: Delimiters
}

/// A template in a library program.
struct TemplateEntry: Sendable {
    let name: String
    let path: String
    let body: NodeRange
}
