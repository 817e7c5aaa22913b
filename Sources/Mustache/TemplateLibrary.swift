/// Templates compiled once, by name, that render without parsing again.
///
/// A partial or parent name that is not a template is looked up under `components/` next; a
/// dynamic name is looked up under `components/` first, so `{{#body}}{{>*component}}{{/body}}`
/// renders each block with `components/<component>`, even a component named `layout`; with
/// ``DynamicPartialScope/components``, only there.
/// The library is immutable: one instance can render from many tasks at once.
public struct TemplateLibrary: Sendable {
    /// How deep partials, parents and lambdas may nest before rendering stops with
    /// ``RenderError/nestingTooDeep(templates:)``.
    public static let maximumNesting = 100
    /// How deep sections, inverted sections, parents and blocks may nest in one template; a
    /// deeper one is a ``TemplateError`` at the first tag past the limit.
    public static let maximumTemplateNesting = 10_000

    /// Every template name, sorted.
    public let names: [String]
    /// Partial and parent tags that name no template, sorted by path and position: they render
    /// as nothing (as the spec asks), and a site generator will want to say so once.
    public let missingPartialTags: [MissingPartialTag]
    let program: Program
    private let indexByName: [String: Int]

    /// Compiles in-memory templates, keyed by name. Throws ``TemplateErrors`` listing every problem.
    public init(templates: [String: String]) throws {
        try self.init(sources: templates.map { TemplateSource(name: $0.key, path: $0.key, text: $0.value) })
    }

    /// A template to compile: its name, the path shown in messages, and its text.
    struct TemplateSource {
        let name: String
        let path: String
        let text: String
    }

    /// Compiles `sources`; throws ``TemplateErrors`` with `earlierErrors` and every compile error,
    /// sorted by path and position, when there are any.
    init(sources: [TemplateSource], earlierErrors: [TemplateError] = []) throws {
        let sources = sources.sorted { $0.name < $1.name }
        names = sources.map(\.name)
        indexByName = Dictionary(uniqueKeysWithValues: zip(names, names.indices))
        // Partial and parent tags may also name a template under components/ without that prefix;
        // a dynamic name (a block's component) tries components/ first.
        var partialIndex = indexByName.mapValues(Int32.init)
        var dynamicIndex = partialIndex
        var componentIndex: [String: Int32] = [:]
        let componentsPrefix = "components/"
        for (name, index) in indexByName where name.hasPrefix(componentsPrefix) {
            let shortName = String(name.dropFirst(componentsPrefix.count))
            if partialIndex[shortName] == nil { partialIndex[shortName] = Int32(index) }
            dynamicIndex[shortName] = Int32(index)
            componentIndex[shortName] = Int32(index)
        }

        let builder = ProgramBuilder()
        var errors = earlierErrors
        var missingPartialTags: [MissingPartialTag] = []
        var templates: [TemplateEntry] = []
        for source in sources {
            let compiler = TemplateCompiler(
                source: source.text, path: source.path, program: builder, partialIndex: partialIndex)
            let body = compiler.compile()
            errors += compiler.errors
            missingPartialTags += compiler.missingPartialTags
            templates.append(TemplateEntry(name: source.name, path: source.path, body: body))
        }
        guard errors.isEmpty else {
            throw TemplateErrors(errors: errors.sorted {
                ($0.path, $0.line, $0.column) < ($1.path, $1.line, $1.column)
            })
        }
        program = Program(
            builder: builder, templates: templates, partialIndex: partialIndex, dynamicIndex: dynamicIndex,
            componentIndex: componentIndex)
        self.missingPartialTags = missingPartialTags.sorted { ($0.path, $0.line, $0.column) < ($1.path, $1.line, $1.column) }
    }

    /// Whether a template has exactly this name.
    public func contains(_ name: String) -> Bool {
        indexByName[name] != nil
    }

    /// Renders the template `name` against `context`.
    ///
    /// - Parameter missingPartials: `.report` renders a missing partial or parent as empty and lists
    ///   its name in the result; `.renderEmpty` renders it as empty and lists nothing (the spec).
    /// - Throws: ``RenderError`` for an unknown name or runaway nesting, ``TemplateError`` for lambda
    ///   output that does not compile, and whatever a lambda throws.
    public func render(
        _ name: String, context: MustacheValue, missingPartials: MissingPartialPolicy = .report
    ) throws -> RenderedTemplate {
        try render(name, contexts: [context], missingPartials: missingPartials)
    }

    /// Renders the template `name` against several contexts, outermost first, as if the
    /// template sat in a section of each: a name is looked up in the last context first. This
    /// layers values (a block's fields over the page's) without merging them into one object.
    public func render(
        _ name: String, contexts: [MustacheValue], missingPartials: MissingPartialPolicy = .report
    ) throws -> RenderedTemplate {
        try render(name, contexts: contexts, options: RenderOptions(missingPartials: missingPartials))
    }

    /// Renders the template `name` against `contexts` (as above) with `options`: for HTML pages
    /// from untrusted content, ``RenderOptions/htmlPages``.
    public func render(_ name: String, contexts: [MustacheValue], options: RenderOptions) throws -> RenderedTemplate {
        guard let index = indexByName[name] else { throw RenderError.unknownTemplate(name) }
        var session = RenderSession(
            library: program, program: program, options: options,
            context: ContextStack(frames: contexts), overrides: [], trail: [.template(Int32(index))],
            outputCapacity: Self.initialOutputCapacity)
        try session.render(program.templates[index].body)
        return RenderedTemplate(text: session.text, missingPartials: session.missingPartials, refusedURLs: session.refusedURLs)
    }

    /// Enough for a typical page without growing more than once or twice.
    private static let initialOutputCapacity = 16 * 1024
}

/// What to do when a partial or parent names a template the library does not hold.
public enum MissingPartialPolicy: Sendable {
    /// Render it as empty and list its name in ``RenderedTemplate/missingPartials``.
    case report
    /// Render it as empty and list nothing, as the Mustache spec asks.
    case renderEmpty
}

/// The output of one render.
public struct RenderedTemplate: Sendable {
    /// The rendered text.
    public var text: String
    /// Names of missing partials and parents, as asked for, unique, in first-seen order.
    public var missingPartials: [String]
    /// URLs replaced under ``URLPolicy/filtered``, unique, in first-seen order.
    public var refusedURLs: [RefusedURL]

    /// A result with `text`, the names of the missing partials it met and the URLs it refused.
    public init(text: String, missingPartials: [String], refusedURLs: [RefusedURL] = []) {
        self.text = text
        self.missingPartials = missingPartials
        self.refusedURLs = refusedURLs
    }
}
