/// One render of one template: the output so far, the context stack, the block overrides of the
/// parents being rendered, and the indentation of the standalone partials being rendered.
struct RenderSession: ~Copyable {
    /// The program holding the library's templates.
    private let library: Program
    /// The program whose nodes are rendering: the library's, or a lambda output's.
    private var program: Program
    private let options: RenderOptions
    private var output: ByteBuffer
    private var context: ContextStack
    /// Overrides of the parents being rendered, outermost first: an outer override wins.
    private var overrides: [OverrideFrame]
    /// The indentations of the standalone partials and blocks being rendered, innermost last.
    /// `indentation` from `indentationStart` on is prepended at each template line start; an inline
    /// partial starts a fresh, empty one. Kept in one buffer so nesting does not allocate.
    private var indentation = ByteBuffer(capacity: 64)
    private var indentationStart = 0
    private(set) var missingPartials: [String] = []
    /// URLs refused in URL attributes, under ``URLPolicy/filtered``.
    private(set) var refusedURLs: [RefusedURL] = []
    /// How many sections, blocks and partials the node being rendered is inside.
    private var depth = 0
    /// The templates and lambdas being rendered, outermost first.
    private var trail: [TrailEntry]

    /// The overrides one parent tag gives, in the program that compiled them.
    struct OverrideFrame {
        let program: Program
        let overrides: Range<Int32>
    }

    enum TrailEntry {
        case template(Int32)
        case lambda(String)
    }

    init(
        library: Program, program: Program, options: RenderOptions,
        context: consuming ContextStack, overrides: [OverrideFrame], trail: [TrailEntry], outputCapacity: Int
    ) {
        self.library = library
        self.program = program
        self.options = options
        self.context = context
        self.overrides = overrides
        self.trail = trail
        output = ByteBuffer(capacity: outputCapacity)
    }

    /// The output rendered so far.
    var text: String { output.makeString() }

    mutating func render(_ body: NodeRange) throws {
        var index = Int(body.start)
        let end = Int(body.end)
        while index < end {
            switch program.nodes[index] {
            case .text(let span):
                append(span)
            case .variable(let variable):
                if let value = lookup(variable.name) {
                    try interpolate(value, for: variable)
                }
            case .section(let section):
                try render(section, value: lookup(section.name) ?? .null)
            case .invertedSection(let inverted):
                if !(lookup(inverted.name)?.isTruthy ?? false) {
                    try renderNested(inverted.body, in: program)
                }
            case .partial(let partial):
                if let template = resolve(partial.template) {
                    try include(template, indentation: partial.indentation)
                }
            case .parent(let parent):
                guard let template = resolve(parent.template) else { break }
                if parent.overrides.isEmpty {
                    try include(template, indentation: parent.indentation)
                } else {
                    overrides.append(OverrideFrame(program: program, overrides: parent.overrides))
                    try include(template, indentation: parent.indentation)
                    overrides.removeLast()
                }
            case .block(let block):
                try render(block)
            }
            index += 1
        }
    }

    /// Bytes of the current program's text table.
    private func bytes(_ range: ByteRange) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: program.text[Int(range.start)..<Int(range.end)])
    }

    private func lookup(_ name: Int32) -> MustacheValue? {
        context.lookup(program.names.baseAddress! + Int(name))
    }

    // MARK: Text and values

    private mutating func append(_ span: TextSpan) {
        let text = program.text
        if indentationStart == indentation.count || span.lineStarts.isEmpty {
            output.append(bytes(span.bytes))
            return
        }
        var start = Int(span.bytes.start)
        for lineStart in program.lineStarts[Int(span.lineStarts.lowerBound)..<Int(span.lineStarts.upperBound)] {
            output.append(UnsafeBufferPointer(rebasing: text[start..<Int(lineStart)]))
            output.append(indentation, from: indentationStart)
            start = Int(lineStart)
        }
        output.append(UnsafeBufferPointer(rebasing: text[start..<Int(span.bytes.end)]))
    }

    private mutating func interpolate(_ value: consuming MustacheValue, for variable: VariableNode) throws {
        switch consume value {
        case .null, .array, .object:
            return
        case .bool(let flag):
            output.append(flag ? "true" : "false")
        case .number(let number):
            output.append(Interpolation.text(of: number))
        case .string(let text):
            append(checkedURL(text, for: variable), escapingHTML: variable.escapesHTML)
        case .html(let html):
            output.append(checkedURL(html, for: variable))
        case .lambda(let lambda):
            let renderer = try enterLambda(named: variable.name, at: variable.tag)
            let result = try lambda.body(LambdaInvocation(text: nil, renderer: renderer))
            if case .string(let template) = result {
                append(checkedURL(try renderer.render(template), for: variable), escapingHTML: variable.escapesHTML)
            } else {
                try interpolate(result, for: variable)
            }
            merge(renderer)
            trail.removeLast()
        case .lazy(let lazy):
            try interpolate(lazy.value, for: variable)
        }
    }

    /// `text`, or ``URLSafety/replacement`` when the variable starts a URL attribute's value and
    /// the URL it would make there is unsafe (checked under ``URLPolicy/filtered`` only).
    @inline(__always)
    private mutating func checkedURL(_ text: consuming String, for variable: VariableNode) -> String {
        guard let attribute = variable.urlAttribute, options.urls == .filtered else { return text }
        return filteredURL(text, in: attribute, tag: variable.tag)
    }

    private mutating func filteredURL(_ text: consuming String, in attribute: URLAttributeStart, tag: Int32) -> String {
        // What the value (or a `srcset` candidate) holds already: whitespace and what variables
        // before this one wrote (`href="{{scheme}}{{rest}}"`), so two safe halves cannot make an
        // unsafe whole.
        let separator = attribute.isList ? UInt8(ascii: ",") : attribute.quote
        let before = attribute.quote == 0 ? "" : output.text(afterLast: attribute.quote, or: separator, within: Self.attributeLookBack)
        let url = before.isEmpty ? text : before + text
        let isSafe = attribute.rule == .image ? URLSafety.isSafeImageSource(url) : URLSafety.isSafeLink(url)
        guard !isSafe else { return text }
        let source = program.tags[Int(tag)]
        let refused = RefusedURL(url: url, path: source.path, line: source.line, column: source.column)
        if !refusedURLs.contains(refused) { refusedURLs.append(refused) }
        return URLSafety.replacement
    }

    /// How far back the start of an attribute value is looked for.
    private static let attributeLookBack = 4096

    private mutating func append(_ text: consuming String, escapingHTML: Bool) {
        if escapingHTML {
            output.appendEscapingHTML(text)
        } else {
            output.append(text)
        }
    }

    // MARK: Sections

    private mutating func render(_ section: SectionNode, value: consuming MustacheValue) throws {
        switch value.resolved {
        case .array(let items):
            for item in items {
                context.push(item)
                try renderNested(section.body, in: program)
                context.pop()
            }
        case .lambda(let lambda):
            let renderer = try enterLambda(named: section.name, at: section.tag)
            let result = try lambda.body(LambdaInvocation(text: renderer.rawText, renderer: renderer))
            switch result {
            case .string(let template):
                output.append(try renderer.render(template))
            case .html(let html):
                output.append(html)
            default:
                try render(section, value: result)
            }
            merge(renderer)
            trail.removeLast()
        default:
            guard value.isTruthy else { return }
            context.push(consume value)
            try renderNested(section.body, in: program)
            context.pop()
        }
    }

    /// Checks the nesting depth, notes the lambda in the trail and makes what it renders with.
    private mutating func enterLambda(named name: Int32, at tag: Int32) throws -> LambdaRenderer {
        let lambdaName = program.names[Int(name)].text
        try enter(.lambda(lambdaName))
        return LambdaRenderer(
            library: library, program: program, options: options,
            context: context.frames, overrides: overrides, trail: trail, lambdaName: lambdaName, tag: tag)
    }

    // MARK: Partials, parents and blocks

    private mutating func resolve(_ reference: TemplateReference) -> Int32? {
        switch reference {
        case .resolved(let template):
            return template
        case .missing(let name):
            record(program.missingNames[Int(name)])
        case .dynamic(let name):
            guard case .string(let templateName)? = lookup(name) else { return nil }
            let index = options.dynamicPartials == .components ? library.componentIndex : library.dynamicIndex
            if let template = index[templateName] { return template }
            record(templateName)
        }
        return nil
    }

    /// Renders a library template for a partial or parent tag: indented when the tag is standalone,
    /// unindented when inline.
    private mutating func include(_ template: Int32, indentation own: ByteRange?) throws {
        try enter(.template(template))
        let outerStart = indentationStart, outerEnd = indentation.count
        if let own {
            indentation.append(bytes(own))
        } else {
            indentationStart = outerEnd
        }
        try renderNested(library.templateBodies[Int(template)], in: library)
        indentation.removeLast(from: outerEnd)
        indentationStart = outerStart
        trail.removeLast()
    }

    private mutating func render(_ block: BlockNode) throws {
        let outerEnd = indentation.count
        indentation.append(bytes(block.indentation))
        if block.startsLine { output.append(indentation, from: indentationStart) }
        if let (overrideProgram, body) = override(named: block.name) {
            try renderNested(body, in: overrideProgram)
        } else {
            try renderNested(block.defaultBody, in: program)
        }
        indentation.removeLast(from: outerEnd)
    }

    private func override(named name: Int32) -> (Program, NodeRange)? {
        for frame in overrides {
            for index in frame.overrides where frame.program.overrides[Int(index)].name == name {
                return (frame.program, frame.program.overrides[Int(index)].body)
            }
        }
        return nil
    }

    /// Renders the content of a section, block or partial, one level deeper: on this thread, and
    /// every ``levelsPerStack`` levels on a fresh thread with a stack of its own (this one waits),
    /// so templates nested as deep as the compiler allows never run out of stack.
    private mutating func renderNested(_ body: NodeRange, in other: Program) throws {
        depth += 1
        defer { depth -= 1 }
        guard depth % Self.levelsPerStack == 0 else { return try render(body, in: other) }
        try withUnsafeMutablePointer(to: &self) { session in
            try FreshStack.run(bytes: Self.stackBytes) { try session.pointee.render(body, in: other) }
        }
    }

    /// Levels rendered on one stack; each costs a few hundred bytes of it (more in debug builds).
    private static let levelsPerStack = 256
    private static let stackBytes = 8 << 20

    /// Renders nodes of `other`, which may be another program than the current one.
    private mutating func render(_ body: NodeRange, in other: Program) throws {
        if other === program {
            try render(body)
        } else {
            let current = program
            program = other
            try render(body)
            program = current
        }
    }

    private mutating func enter(_ entry: TrailEntry) throws {
        guard trail.count < TemplateLibrary.maximumNesting else {
            throw RenderError.nestingTooDeep(templates: trail.suffix(10).map { entry in
                switch entry {
                case .template(let index): library.templates[Int(index)].name
                case .lambda(let name): "lambda '\(name)'"
                }
            })
        }
        trail.append(entry)
    }

    /// Takes in what a lambda's renders met.
    private mutating func merge(_ renderer: LambdaRenderer) {
        renderer.missingPartials.forEach { record($0) }
        for refused in renderer.refusedURLs where !refusedURLs.contains(refused) { refusedURLs.append(refused) }
    }

    private mutating func record(_ missingPartial: String) {
        guard options.missingPartials == .report, !missingPartials.contains(missingPartial) else { return }
        missingPartials.append(missingPartial)
    }
}
