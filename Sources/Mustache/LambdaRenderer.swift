/// What a ``LambdaInvocation`` renders with: a snapshot of the session where the lambda was called.
final class LambdaRenderer {
    private let library: Program
    private let program: Program
    private let options: RenderOptions
    private let context: [MustacheValue]
    private let overrides: [RenderSession.OverrideFrame]
    private let trail: [RenderSession.TrailEntry]
    private let lambdaName: String
    private let tagIndex: Int32
    private var tag: TagSource { program.tags[Int(tagIndex)] }
    /// The section's raw text; nil for an interpolation.
    let rawText: String?
    /// Missing partials met by ``render(_:)``, merged into the session afterwards.
    private(set) var missingPartials: [String] = []
    /// URLs refused by ``render(_:)``, merged into the session afterwards.
    private(set) var refusedURLs: [RefusedURL] = []

    init(
        library: Program, program: Program, options: RenderOptions,
        context: [MustacheValue], overrides: [RenderSession.OverrideFrame], trail: [RenderSession.TrailEntry],
        lambdaName: String, tag: Int32
    ) {
        self.library = library
        self.program = program
        self.options = options
        self.context = context
        self.overrides = overrides
        self.trail = trail
        self.lambdaName = lambdaName
        tagIndex = tag
        let source = program.tags[Int(tag)]
        rawText = source.rawText.map { String(decoding: program.sources[Int(source.source)][$0], as: UTF8.self) }
    }

    func render(_ template: String) throws -> String {
        let (templateProgram, body): (Program, NodeRange)
        if template == rawText, let range = tag.rawText {
            (templateProgram, body) = try program.rawTextBodies.body(forTag: tagIndex) {
                // Part of a template that compiled, so it compiles: nothing to report.
                try compile(program.sources[Int(tag.source)], unit: range, reportsErrors: false)
            }
        } else {
            let source = Array(template.utf8)
            (templateProgram, body) = try compile(source, unit: source.indices, reportsErrors: true)
        }
        var session = RenderSession(
            library: library, program: templateProgram, options: options,
            context: ContextStack(frames: context), overrides: overrides, trail: trail,
            outputCapacity: template.utf8.count * 2)
        try session.render(body)
        for name in session.missingPartials where !missingPartials.contains(name) {
            missingPartials.append(name)
        }
        for refused in session.refusedURLs where !refusedURLs.contains(refused) { refusedURLs.append(refused) }
        return session.text
    }

    /// Compiles `unit` of `source` as a template of its own, into a program of its own.
    private func compile(_ source: [UInt8], unit: Range<Int>, reportsErrors: Bool) throws -> (Program, NodeRange) {
        let builder = ProgramBuilder(blockNumbers: library.blockNumbers)
        let compiler = TemplateCompiler(
            source: source, path: tag.path, program: builder, partialIndex: library.partialIndex)
        let body = compiler.compileUnit(unit, delimiters: tag.delimiters, reportsErrors: reportsErrors)
        if let problem = compiler.errors.first {
            throw TemplateError(
                path: tag.path, line: tag.line, column: tag.column,
                message: "lambda '\(lambdaName)' returned text that is not a valid template: "
                    + "\(problem.message) (at \(problem.line):\(problem.column) of that text)")
        }
        return (Program(builder: builder, templates: [], partialIndex: [:]), body)
    }
}
