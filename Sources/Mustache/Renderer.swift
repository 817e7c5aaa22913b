/// One render of one template: the output so far, the context stack, the block overrides of the
/// parents being rendered, and the indentation of the standalone partials being rendered.
struct RenderSession {
    let library: TemplateLibrary
    let missingPartialPolicy: MissingPartialPolicy
    private(set) var output = ""
    private var context: ContextStack
    /// Overrides of the parents being rendered, outermost first: an outer override wins.
    private var overrides: [[BlockOverride]]
    /// Prepended at each template line start.
    private var indentation = ""
    private(set) var missingPartials: [String] = []
    /// The templates and lambdas being rendered, outermost first.
    private var trail: [String]

    init(
        library: TemplateLibrary, missingPartialPolicy: MissingPartialPolicy, context: ContextStack,
        overrides: [[BlockOverride]], trail: [String]
    ) {
        self.library = library
        self.missingPartialPolicy = missingPartialPolicy
        self.context = context
        self.overrides = overrides
        self.trail = trail
    }

    mutating func render(_ nodes: [Node]) throws {
        for node in nodes {
            switch node {
            case .text(let text):
                append(text)
            case .variable(let variable):
                if let value = context.lookup(variable.name) {
                    try interpolate(value, for: variable)
                }
            case .section(let section):
                try render(section, value: context.lookup(section.name) ?? .null)
            case .invertedSection(let inverted):
                if !(context.lookup(inverted.name)?.isTruthy ?? false) {
                    try render(inverted.children)
                }
            case .partial(let partial):
                if let template = resolve(partial.template) {
                    try include(template, indentation: partial.indentation)
                }
            case .parent(let parent):
                guard let template = resolve(parent.template) else { continue }
                if parent.overrides.isEmpty {
                    try include(template, indentation: parent.indentation)
                } else {
                    overrides.append(parent.overrides)
                    try include(template, indentation: parent.indentation)
                    overrides.removeLast()
                }
            case .block(let block):
                try render(block)
            }
        }
    }

    // MARK: Text and values

    private mutating func append(_ text: Text) {
        if indentation.isEmpty || text.pieces.isEmpty {
            output += text.text
            return
        }
        for (offset, piece) in text.pieces.enumerated() {
            if offset > 0 || text.startsLine { output += indentation }
            output += piece
        }
    }

    private mutating func interpolate(_ value: MustacheValue, for variable: Variable) throws {
        switch value {
        case .null, .array, .object:
            return
        case .bool(let flag):
            output += flag ? "true" : "false"
        case .number(let number):
            output += Interpolation.text(of: number)
        case .string(let text):
            appendValueText(text, escaping: variable.escapesHTML)
        case .html(let html):
            output += html
        case .lambda(let lambda):
            try enter("lambda '\(variable.name.text)'")
            let renderer = lambdaRenderer(
                named: variable.name.text, delimiters: .standard, rawText: nil, rawTextNodes: [],
                location: variable.location)
            let result = try lambda.body(LambdaInvocation(text: nil, renderer: renderer))
            if case .string(let template) = result {
                appendValueText(try renderer.render(template), escaping: variable.escapesHTML)
            } else {
                try interpolate(result, for: variable)
            }
            record(renderer.missingPartials)
            trail.removeLast()
        }
    }

    private mutating func appendValueText(_ text: String, escaping: Bool) {
        if escaping {
            HTMLEscaping.append(text, to: &output)
        } else {
            output += text
        }
    }

    // MARK: Sections

    private mutating func render(_ section: Section, value: MustacheValue) throws {
        switch value {
        case .array(let items):
            for item in items {
                context.push(item)
                try render(section.children)
                context.pop()
            }
        case .lambda(let lambda):
            try enter("lambda '\(section.name.text)'")
            let renderer = lambdaRenderer(
                named: section.name.text, delimiters: section.delimiters, rawText: section.rawText,
                rawTextNodes: section.rawTextNodes, location: section.location)
            let result = try lambda.body(LambdaInvocation(text: section.rawText, renderer: renderer))
            switch result {
            case .string(let template):
                output += try renderer.render(template)
            case .html(let html):
                output += html
            default:
                try render(section, value: result)
            }
            record(renderer.missingPartials)
            trail.removeLast()
        default:
            guard value.isTruthy else { return }
            context.push(value)
            try render(section.children)
            context.pop()
        }
    }

    private func lambdaRenderer(
        named name: String, delimiters: Delimiters, rawText: String?, rawTextNodes: [Node],
        location: SourceLocation
    ) -> LambdaRenderer {
        LambdaRenderer(
            library: library, missingPartialPolicy: missingPartialPolicy, context: context,
            overrides: overrides, trail: trail, lambdaName: name, delimiters: delimiters,
            rawText: rawText, rawTextNodes: rawTextNodes, location: location)
    }

    // MARK: Partials, parents and blocks

    private mutating func resolve(_ target: IncludedTemplate) -> CompiledTemplate? {
        switch target {
        case .named(let name, let index):
            if let index { return library.templates[index] }
            record([name])
        case .dynamic(let name):
            guard case .string(let templateName)? = context.lookup(name) else { return nil }
            if let index = library.partialIndex[templateName] { return library.templates[index] }
            record([templateName])
        }
        return nil
    }

    /// Renders a partial or parent: indented when its tag is standalone, unindented when inline.
    private mutating func include(_ template: CompiledTemplate, indentation own: String?) throws {
        try enter(template.name)
        let outer = indentation
        if let own {
            indentation += own
        } else {
            indentation = ""
        }
        try render(template.nodes)
        indentation = outer
        trail.removeLast()
    }

    private mutating func render(_ block: BlockSite) throws {
        let content = override(named: block.name) ?? block.defaultNodes
        let outer = indentation
        indentation += block.indentation
        if block.startsLine { output += indentation }
        try render(content)
        indentation = outer
    }

    private func override(named name: String) -> [Node]? {
        for parentOverrides in overrides {
            for candidate in parentOverrides where candidate.name == name {
                return candidate.nodes
            }
        }
        return nil
    }

    private mutating func enter(_ name: String) throws {
        guard trail.count < TemplateLibrary.maximumNesting else {
            throw RenderError.nestingTooDeep(templates: Array(trail.suffix(10)))
        }
        trail.append(name)
    }

    private mutating func record(_ names: [String]) {
        guard missingPartialPolicy == .report else { return }
        for name in names where !missingPartials.contains(name) {
            missingPartials.append(name)
        }
    }
}

/// What a ``LambdaInvocation`` renders with: a snapshot of the session where the lambda was called.
final class LambdaRenderer {
    private let library: TemplateLibrary
    private let missingPartialPolicy: MissingPartialPolicy
    private let context: ContextStack
    private let overrides: [[BlockOverride]]
    private let trail: [String]
    private let lambdaName: String
    private let delimiters: Delimiters
    private let rawText: String?
    private let rawTextNodes: [Node]
    private let location: SourceLocation
    /// Missing partials met by ``render(_:)``, merged into the session afterwards.
    private(set) var missingPartials: [String] = []

    init(
        library: TemplateLibrary, missingPartialPolicy: MissingPartialPolicy, context: ContextStack,
        overrides: [[BlockOverride]], trail: [String], lambdaName: String, delimiters: Delimiters,
        rawText: String?, rawTextNodes: [Node], location: SourceLocation
    ) {
        self.library = library
        self.missingPartialPolicy = missingPartialPolicy
        self.context = context
        self.overrides = overrides
        self.trail = trail
        self.lambdaName = lambdaName
        self.delimiters = delimiters
        self.rawText = rawText
        self.rawTextNodes = rawTextNodes
        self.location = location
    }

    func render(_ template: String) throws -> String {
        let nodes = template == rawText ? rawTextNodes : try compile(template)
        var session = RenderSession(
            library: library, missingPartialPolicy: missingPartialPolicy, context: context,
            overrides: overrides, trail: trail)
        try session.render(nodes)
        for name in session.missingPartials where !missingPartials.contains(name) {
            missingPartials.append(name)
        }
        return session.output
    }

    private func compile(_ template: String) throws -> [Node] {
        let compiler = TemplateCompiler(source: template, path: location.path, partialIndex: library.partialIndex)
        let nodes = compiler.compile(delimiters: delimiters)
        if let problem = compiler.errors.first {
            throw TemplateError(
                path: location.path, line: location.line, column: location.column,
                message: "lambda '\(lambdaName)' returned text that is not a valid template: "
                    + "\(problem.message) (at \(problem.line):\(problem.column) of that text)")
        }
        return nodes
    }
}
