/// What a ``LambdaInvocation`` renders with: a snapshot of the session where the lambda was called.
final class LambdaRenderer {
    private let library: Program
    private let program: Program
    private let missingPartialPolicy: MissingPartialPolicy
    private let context: [MustacheValue]
    private let overrides: [RenderSession.OverrideFrame]
    private let trail: [RenderSession.TrailEntry]
    private let lambdaName: String
    private let tag: TagSource
    /// Missing partials met by ``render(_:)``, merged into the session afterwards.
    private(set) var missingPartials: [String] = []

    init(
        library: Program, program: Program, missingPartialPolicy: MissingPartialPolicy,
        context: [MustacheValue], overrides: [RenderSession.OverrideFrame], trail: [RenderSession.TrailEntry],
        lambdaName: String, tag: TagSource
    ) {
        self.library = library
        self.program = program
        self.missingPartialPolicy = missingPartialPolicy
        self.context = context
        self.overrides = overrides
        self.trail = trail
        self.lambdaName = lambdaName
        self.tag = tag
    }

    /// The section's raw text; nil for an interpolation.
    var rawText: String? { tag.rawText }

    func render(_ template: String) throws -> String {
        let (templateProgram, body): (Program, NodeRange)
        if template == tag.rawText, let rawTextBody = tag.rawTextBody {
            (templateProgram, body) = (program, rawTextBody)
        } else {
            (templateProgram, body) = try compile(template)
        }
        var session = RenderSession(
            library: library, program: templateProgram, missingPartialPolicy: missingPartialPolicy,
            context: ContextStack(frames: context), overrides: overrides, trail: trail,
            outputCapacity: template.utf8.count * 2)
        try session.render(body)
        for name in session.missingPartials where !missingPartials.contains(name) {
            missingPartials.append(name)
        }
        return session.text
    }

    private func compile(_ template: String) throws -> (Program, NodeRange) {
        let builder = ProgramBuilder(blockNumbers: library.blockNumbers)
        let compiler = TemplateCompiler(
            source: template, path: tag.path, program: builder, partialIndex: library.partialIndex)
        let body = compiler.compile(delimiters: tag.delimiters)
        if let problem = compiler.errors.first {
            throw TemplateError(
                path: tag.path, line: tag.line, column: tag.column,
                message: "lambda '\(lambdaName)' returned text that is not a valid template: "
                    + "\(problem.message) (at \(problem.line):\(problem.column) of that text)")
        }
        return (Program(builder: builder, templates: [], partialIndex: [:]), body)
    }
}
