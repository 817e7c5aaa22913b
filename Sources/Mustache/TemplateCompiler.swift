/// Compiles one template's source into nodes: lexing, the line rules, then the tree of sections,
/// partials, parents and blocks. Collects every problem it can recover from, with its position.
final class TemplateCompiler {
    private let source: [UInt8]
    private let path: String
    let program: ProgramBuilder
    /// Template indices by the names partial and parent tags may use.
    private let partialIndex: [String: Int32]
    private(set) var errors: [TemplateError] = []
    /// Partial and parent tags that name no template: not errors (they render as nothing, as
    /// the spec asks), but worth a warning.
    private(set) var missingPartialTags: [MissingPartialTag] = []
    /// The source's index in the program's sources, which tags refer to.
    private let sourceIndex: Int32
    private var lineStartOffsets: [Int]?
    /// The last position asked for: tags come in source order, so a column is counted on from it.
    private var lastPosition = (offset: 0, line: 1, column: 1)

    /// - Parameters:
    ///   - program: where the nodes, text and names go.
    ///   - partialIndex: template indices by the names partial and parent tags may use.
    convenience init(source: String, path: String, program: ProgramBuilder, partialIndex: [String: Int32]) {
        self.init(source: Array(source.utf8), path: path, program: program, partialIndex: partialIndex)
    }

    init(source: [UInt8], path: String, program: ProgramBuilder, partialIndex: [String: Int32]) {
        self.source = source
        self.path = path
        self.program = program
        self.partialIndex = partialIndex
        sourceIndex = program.appendSource(source)
    }

    /// Compiles the template into the program and returns its body; check ``errors`` before use.
    func compile(delimiters: Delimiters = .standard) -> NodeRange {
        compileUnit(source.indices, delimiters: delimiters, reportsErrors: true)
    }

    /// Compiles part of the source (a section's raw text, for a lambda) as a template of its own.
    func compileUnit(_ unit: Range<Int>, delimiters: Delimiters, reportsErrors: Bool) -> NodeRange {
        var lexer = Lexer(source: source, range: unit, delimiters: delimiters)
        lexer.scan()
        if reportsErrors {
            for problem in lexer.problems { report(problem.message, at: problem.offset) }
        }
        let tokens = LineLayout.splitAtLineBreaks(lexer.tokens, source: source)
        let layouts = LineLayout.layout(of: tokens, source: source)
        var builder = TreeBuilder(
            compiler: self, source: source, unit: unit, tokens: tokens, layouts: layouts,
            reportsErrors: reportsErrors)
        return builder.build()
    }

    func resolvePartial(_ name: String) -> Int32? {
        partialIndex[name]
    }

    func report(_ message: String, at offset: Int) {
        let position = position(of: offset)
        errors.append(TemplateError(path: path, line: position.line, column: position.column, message: message))
    }

    func reportMissingPartial(named name: String, kind noun: String, at offset: Int) {
        let position = position(of: offset)
        missingPartialTags.append(MissingPartialTag(
            name: name, path: path, line: position.line, column: position.column,
            message: "no template is named '\(name)' (nor 'components/\(name)'), so this \(noun) renders as nothing"))
    }

    /// Records where a variable or section tag stands, and for a section where its raw text is.
    func tag(at offset: Int, rawText: Range<Int>? = nil, delimiters: Delimiters = .standard) -> Int32 {
        let position = position(of: offset)
        return program.appendTag(TagSource(
            path: path, line: position.line, column: position.column, rawText: rawText, source: sourceIndex,
            delimiters: delimiters))
    }

    /// 1-based line, and 1-based column counted in characters.
    func position(of offset: Int) -> (line: Int, column: Int) {
        let starts = lineStartOffsets ?? [0] + source.indices.filter { source[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        lineStartOffsets = starts
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let line = low + 1
        let (countedFrom, column) =
            lastPosition.line == line && lastPosition.offset <= offset
            ? (lastPosition.offset, lastPosition.column) : (starts[low], 1)
        lastPosition = (offset, line, column + String(decoding: source[countedFrom..<offset], as: UTF8.self).count)
        return (line, lastPosition.column)
    }
}
