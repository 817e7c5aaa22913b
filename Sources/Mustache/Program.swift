/// Compiled templates as flat, immutable tables that nodes refer to by index.
///
/// The hot tables live in memory the program allocates and owns, so a render reads nodes, text and
/// names through plain pointers: no copies, no reference counting. A library compiles all its
/// templates into one program; a lambda's output compiles into a small one of its own.
final class Program: @unchecked Sendable {
    // Safe to share: every table is written once in `init` and only read afterwards.
    let nodes: UnsafeBufferPointer<Node>
    let text: UnsafeBufferPointer<UInt8>
    let lineStarts: UnsafeBufferPointer<Int32>
    let names: UnsafeBufferPointer<Name>
    let overrides: UnsafeBufferPointer<BlockOverride>
    let tags: [TagSource]
    /// The template sources the tags point into, for a lambda's raw text.
    let sources: [[UInt8]]
    /// Sections' raw text compiled for lambdas that render it, on first use.
    let rawTextBodies = RawTextBodies()
    /// Names of missing partials and parents, as written.
    let missingNames: [String]
    /// The templates of a library program; empty for a lambda's output.
    let templates: [TemplateEntry]
    /// Each template's body, by template index.
    let templateBodies: UnsafeBufferPointer<NodeRange>
    /// Template indices by the names partial and parent tags may use.
    let partialIndex: [String: Int32]
    /// Template indices by the names a dynamic partial (`{{>*component}}`) may evaluate to: a
    /// template under `components/` first, then any template (the spec).
    let dynamicIndex: [String: Int32]
    /// Template indices of the templates under `components/`, by the name after that folder:
    /// all that a dynamic partial reaches with ``DynamicPartialScope/components``.
    let componentIndex: [String: Int32]
    /// Library-wide numbers of block names, so a lambda's output matches the library's blocks.
    let blockNumbers: [String: Int32]

    init(
        builder: ProgramBuilder, templates: [TemplateEntry], partialIndex: [String: Int32],
        dynamicIndex: [String: Int32] = [:], componentIndex: [String: Int32] = [:]
    ) {
        nodes = Self.copy(builder.nodes)
        text = Self.copy(builder.text)
        lineStarts = Self.copy(builder.lineStarts)
        names = Self.copy(builder.names)
        overrides = Self.copy(builder.overrides)
        tags = builder.tags
        sources = builder.sources
        missingNames = builder.missingNames
        self.templates = templates
        templateBodies = Self.copy(templates.map(\.body))
        self.partialIndex = partialIndex
        self.dynamicIndex = dynamicIndex
        self.componentIndex = componentIndex
        blockNumbers = builder.blockNumbers
    }

    deinit {
        Self.free(nodes)
        Self.free(text)
        Self.free(lineStarts)
        Self.free(names)
        Self.free(overrides)
        Self.free(templateBodies)
    }

    private static func copy<Element>(_ elements: [Element]) -> UnsafeBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = buffer.initialize(from: elements)
        return UnsafeBufferPointer(buffer)
    }

    private static func free<Element>(_ buffer: UnsafeBufferPointer<Element>) {
        let mutable = UnsafeMutableBufferPointer(mutating: buffer)
        mutable.deinitialize()
        mutable.deallocate()
    }
}

/// Collects the tables of a ``Program`` while templates compile.
final class ProgramBuilder {
    private(set) var nodes: [Node] = []
    private(set) var text: [UInt8] = []
    private(set) var lineStarts: [Int32] = []
    private(set) var names: [Name] = []
    private var nameNumbers: [String: Int32] = [:]
    private(set) var overrides: [BlockOverride] = []
    private(set) var tags: [TagSource] = []
    private(set) var sources: [[UInt8]] = []
    private(set) var missingNames: [String] = []
    private(set) var blockNumbers: [String: Int32]

    /// - Parameter blockNumbers: numbers already given to block names (a library's, for a lambda's output).
    init(blockNumbers: [String: Int32] = [:]) {
        self.blockNumbers = blockNumbers
    }

    func append(_ body: [Node]) -> NodeRange {
        let start = Int32(nodes.count)
        nodes += body
        return NodeRange(start: start, end: Int32(nodes.count))
    }

    /// Stores text and the line starts inside it (offsets relative to `bytes`).
    func appendText(_ bytes: [UInt8], lineStarts relativeLineStarts: [Int]) -> TextSpan {
        let start = Int32(text.count)
        text += bytes
        let firstLineStart = Int32(lineStarts.count)
        lineStarts += relativeLineStarts.map { start + Int32($0) }
        return TextSpan(
            bytes: ByteRange(start: start, end: Int32(text.count)),
            lineStarts: firstLineStart..<Int32(lineStarts.count))
    }

    func appendBytes(_ bytes: some Collection<UInt8>) -> ByteRange {
        let start = Int32(text.count)
        text += bytes
        return ByteRange(start: start, end: Int32(text.count))
    }

    func name(_ text: String) -> Int32 {
        if let number = nameNumbers[text] { return number }
        let number = Int32(names.count)
        names.append(Name(text))
        nameNumbers[text] = number
        return number
    }

    func blockNumber(_ name: String) -> Int32 {
        if let number = blockNumbers[name] { return number }
        let number = Int32(blockNumbers.count)
        blockNumbers[name] = number
        return number
    }

    func missingName(_ name: String) -> Int32 {
        missingNames.append(name)
        return Int32(missingNames.count - 1)
    }

    func appendOverrides(_ newOverrides: [BlockOverride]) -> Range<Int32> {
        let start = Int32(overrides.count)
        overrides += newOverrides
        return start..<Int32(overrides.count)
    }

    func appendSource(_ source: [UInt8]) -> Int32 {
        sources.append(source)
        return Int32(sources.count - 1)
    }

    func appendTag(_ tag: TagSource) -> Int32 {
        tags.append(tag)
        return Int32(tags.count - 1)
    }
}
