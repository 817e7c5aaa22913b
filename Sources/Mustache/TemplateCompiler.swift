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
    private var rawTextBodies: [RawTextKey: NodeRange] = [:]
    private var lineStartOffsets: [Int]?

    private struct RawTextKey: Hashable {
        let range: Range<Int>
        let delimiters: Delimiters
    }

    /// - Parameters:
    ///   - program: where the nodes, text and names go.
    ///   - partialIndex: template indices by the names partial and parent tags may use.
    init(source: String, path: String, program: ProgramBuilder, partialIndex: [String: Int32]) {
        self.source = Array(source.utf8)
        self.path = path
        self.program = program
        self.partialIndex = partialIndex
    }

    /// Compiles the template into the program and returns its body; check ``errors`` before use.
    func compile(delimiters: Delimiters = .standard) -> NodeRange {
        compileUnit(source.indices, delimiters: delimiters, reportsErrors: true)
    }

    private func compileUnit(_ unit: Range<Int>, delimiters: Delimiters, reportsErrors: Bool) -> NodeRange {
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

    /// A section's raw text compiled on its own, as a lambda rendering that text would compile it.
    /// Nested sections share their compilation through the cache.
    func rawTextBody(_ range: Range<Int>, delimiters: Delimiters) -> NodeRange {
        let key = RawTextKey(range: range, delimiters: delimiters)
        if let cached = rawTextBodies[key] { return cached }
        let body = compileUnit(range, delimiters: delimiters, reportsErrors: false)
        rawTextBodies[key] = body
        return body
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

    /// Records where a variable or section tag stands, and for a section what a lambda needs.
    func tag(
        at offset: Int, rawText: String? = nil, rawTextBody: NodeRange? = nil, delimiters: Delimiters = .standard
    ) -> Int32 {
        let position = position(of: offset)
        return program.appendTag(TagSource(
            path: path, line: position.line, column: position.column, rawText: rawText,
            rawTextBody: rawTextBody, delimiters: delimiters))
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
        let column = String(decoding: source[starts[low]..<offset], as: UTF8.self).count + 1
        return (low + 1, column)
    }
}
