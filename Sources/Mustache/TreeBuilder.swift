/// Text gathered between tags, with the line starts inside it.
private struct TextBuilder {
    var bytes: [UInt8] = []
    var lineStarts: [Int] = []

    mutating func markLineStart() {
        lineStarts.append(bytes.count)
    }

    mutating func take(into program: ProgramBuilder) -> TextSpan? {
        defer { self = TextBuilder() }
        guard !bytes.isEmpty || !lineStarts.isEmpty else { return nil }
        return program.appendText(bytes, lineStarts: lineStarts)
    }
}

/// An open section, inverted section, parent or block while its content is being compiled.
private struct Frame {
    enum Role {
        case root, section, invertedSection, parent, block
        /// Content compiled only to find problems: it belongs to a tag that was reported.
        case ignored
    }

    var role: Role
    /// The opening tag's token index; -1 for the root.
    var opener: Int
    /// The opening tag's content, which the closing tag must repeat.
    var name: String
    /// The noun for the opening tag in messages.
    var noun: String
    /// Indentation removed from the start of each content line (a block's own indentation).
    var dedent: ArraySlice<UInt8>
    var nodes: [Node] = []
    var text = TextBuilder()
    /// Nothing has been added yet; a block drops the line start at its content's beginning,
    /// because the place the content renders decides that.
    var isAtContentStart = true
    var overrides: [BlockOverride] = []
    var overrideOpeners: [String: Int] = [:]
    var includedTemplate: TemplateReference?
    var indentation: ByteRange?
    var blockIndentation = ByteRange(start: 0, end: 0)
    var blockStartsLine = false

    /// Text and tags inside a parent (other than blocks) are not output.
    var ignoresContent: Bool { role == .parent || role == .ignored }

    mutating func flushText(into program: ProgramBuilder) {
        if let span = text.take(into: program) { nodes.append(.text(span)) }
    }
}

/// Builds the node tree of one compilation unit from its laid-out tokens: sections, partials,
/// parents and blocks, with the indentation rules for partials and blocks.
struct TreeBuilder {
    private let compiler: TemplateCompiler
    private let source: [UInt8]
    private let unit: Range<Int>
    private let tokens: [Token]
    private let layouts: [TokenLayout]
    private let reportsErrors: Bool
    /// The open containers, the root first.
    private var stack: [Frame]
    /// Where the output text so far leaves off in HTML, for variables in URL attributes.
    private var html = HTMLContext()

    init(
        compiler: TemplateCompiler, source: [UInt8], unit: Range<Int>, tokens: [Token],
        layouts: [TokenLayout], reportsErrors: Bool
    ) {
        self.compiler = compiler
        self.source = source
        self.unit = unit
        self.tokens = tokens
        self.layouts = layouts
        self.reportsErrors = reportsErrors
        stack = [Frame(role: .root, opener: -1, name: "", noun: "", dedent: [])]
    }

    mutating func build() -> NodeRange {
        for index in tokens.indices where !layouts[index].isRemoved {
            if layouts[index].beginsLine { startLine() }
            switch tokens[index].kind {
            case .text:
                appendText(index)
            case .tag(let kind):
                handleTag(kind, at: index)
            }
        }
        while stack.count > 1 {
            let frame = stack.removeLast()
            report("\(frame.noun) '\(frame.name)' opened here is never closed", at: frame.opener)
        }
        stack[0].flushText(into: compiler.program)
        return compiler.program.append(stack[0].nodes)
    }

    // MARK: Text

    private mutating func startLine() {
        let top = stack.count - 1
        guard !stack[top].ignoresContent else { return }
        if !(stack[top].role == .block && stack[top].isAtContentStart) {
            stack[top].text.markLineStart()
        }
        stack[top].isAtContentStart = false
    }

    private mutating func appendText(_ index: Int) {
        let top = stack.count - 1
        guard !stack[top].ignoresContent else { return }
        var range = tokens[index].range
        if layouts[index].beginsLine {
            range = range.lowerBound + commonPrefixLength(source[range], stack[top].dedent)..<range.upperBound
        }
        stack[top].text.bytes.append(contentsOf: source[range])
        stack[top].isAtContentStart = false
        html.advance(over: source[range])
    }

    private mutating func appendNode(_ node: Node) {
        let top = stack.count - 1
        stack[top].flushText(into: compiler.program)
        stack[top].nodes.append(node)
        stack[top].isAtContentStart = false
    }

    // MARK: Tags

    private mutating func handleTag(_ kind: TagKind, at index: Int) {
        let content = String(decoding: source[tokens[index].content], as: UTF8.self)
        // The innermost container's role only: a copy of the frame would share its node and text
        // arrays, so the next append would copy them whole (quadratic in the template's size).
        let topRole = stack[stack.count - 1].role
        let ignoresContent = stack[stack.count - 1].ignoresContent
        if topRole == .parent, kind != .block, kind != .close, kind != .comment, kind != .setDelimiters {
            report(
                "only blocks can appear directly inside parent '\(stack[stack.count - 1].name)', not \(kind.noun) '\(content)'",
                at: index)
            if kind.opensContainer { push(.ignored, at: index, name: content) }
            return
        }
        switch kind {
        case .comment, .setDelimiters:
            return
        case .variable(let escaped):
            guard let name = validatedName(content, of: kind, at: index), !ignoresContent else { return }
            appendNode(.variable(VariableNode(
                name: name, escapesHTML: escaped, tag: compiler.tag(at: tokens[index].range.lowerBound),
                urlAttribute: html.variable())))
        case .section, .invertedSection:
            let isValid = validatedName(content, of: kind, at: index) != nil
            let role: Frame.Role =
                !isValid || ignoresContent ? .ignored : kind == .section ? .section : .invertedSection
            push(role, at: index, name: content)
        case .close:
            // A nameless closing tag closes a nameless opening tag, already reported.
            if content.isEmpty, stack.count == 1 || !stack[stack.count - 1].name.isEmpty {
                report("closing tag has no name", at: index)
                return
            }
            close(named: content, at: index)
        case .partial:
            guard let template = includedTemplate(content, of: kind, at: index), !ignoresContent else { return }
            appendNode(.partial(PartialNode(template: template, indentation: standaloneIndentation(at: index))))
        case .parent:
            let template = includedTemplate(content, of: kind, at: index)
            guard let template, !ignoresContent else {
                push(.ignored, at: index, name: content)
                return
            }
            push(.parent, at: index, name: content)
            stack[stack.count - 1].includedTemplate = template
            stack[stack.count - 1].indentation = standaloneIndentation(at: index)
        case .block:
            guard !content.isEmpty else {
                report("block tag has no name", at: index)
                push(.ignored, at: index, name: content)
                return
            }
            guard topRole != .ignored else {
                push(.ignored, at: index, name: content)
                return
            }
            let ownIndentation = blockIndentation(at: index)
            push(.block, at: index, name: content)
            let relative = ownIndentation.dropFirst(commonPrefixLength(ownIndentation, stack[stack.count - 1].dedent))
            stack[stack.count - 1].dedent = ownIndentation
            stack[stack.count - 1].blockIndentation = compiler.program.appendBytes(relative)
            stack[stack.count - 1].blockStartsLine = layouts[index].isStandalone
        }
    }

    private mutating func push(_ role: Frame.Role, at index: Int, name: String) {
        guard case .tag(let kind) = tokens[index].kind else { return }
        var role = role
        if stack.count > TemplateLibrary.maximumTemplateNesting, role != .ignored {
            report(
                "\(kind.noun) '\(name)' nests deeper than \(TemplateLibrary.maximumTemplateNesting) levels of sections, "
                    + "parents and blocks; split the template into partials", at: index)
            role = .ignored
        }
        stack.append(Frame(
            role: role, opener: index, name: name, noun: kind.noun, dedent: stack[stack.count - 1].dedent))
    }

    private mutating func close(named name: String, at index: Int) {
        guard stack.count > 1 else {
            report("closing tag '\(name)' has no open section to close", at: index)
            return
        }
        let (topName, topNoun, topOpener) = (stack[stack.count - 1].name, stack[stack.count - 1].noun, stack[stack.count - 1].opener)
        if topName == name {
            finishTop(closedAt: index)
            return
        }
        let opened = compiler.position(of: tokens[topOpener].range.lowerBound)
        report(
            "closing tag '\(name)' does not match \(topNoun) '\(topName)' opened at \(opened.line):\(opened.column)",
            at: index)
        // Recover: close down to a deeper section of that name, or else take the name for a typo
        // and close the innermost one, so one mistake is reported once.
        let match = stack.lastIndex(where: { $0.opener >= 0 && $0.name == name }) ?? stack.count - 1
        while stack.count > match { finishTop(closedAt: index) }
    }

    private mutating func finishTop(closedAt closer: Int) {
        var frame = stack.removeLast()
        let program = compiler.program
        frame.flushText(into: program)
        let opener = tokens[frame.opener]
        switch frame.role {
        case .root, .ignored:
            return
        case .section:
            let body = program.append(frame.nodes)
            let raw = opener.range.upperBound..<tokens[closer].range.lowerBound
            let tag = compiler.tag(at: opener.range.lowerBound, rawText: raw, delimiters: opener.delimiters)
            appendNode(.section(SectionNode(name: program.name(frame.name), body: body, tag: tag)))
        case .invertedSection:
            appendNode(.invertedSection(InvertedSectionNode(
                name: program.name(frame.name), body: program.append(frame.nodes))))
        case .parent:
            guard let template = frame.includedTemplate else { return }
            appendNode(.parent(ParentNode(
                template: template, overrides: program.appendOverrides(frame.overrides),
                indentation: frame.indentation)))
        case .block:
            let enclosing = stack.count - 1
            switch stack[enclosing].role {
            case .ignored:
                return
            case .parent:
                if let first = stack[enclosing].overrideOpeners[frame.name] {
                    let given = compiler.position(of: tokens[first].range.lowerBound)
                    report(
                        "block '\(frame.name)' is given twice in parent '\(stack[enclosing].name)' "
                            + "(first at \(given.line):\(given.column))",
                        at: frame.opener)
                    return
                }
                stack[enclosing].overrideOpeners[frame.name] = frame.opener
                stack[enclosing].overrides.append(BlockOverride(
                    name: program.blockNumber(frame.name), body: program.append(frame.nodes)))
            case .root, .section, .invertedSection, .block:
                appendNode(.block(BlockNode(
                    name: program.blockNumber(frame.name), defaultBody: program.append(frame.nodes),
                    indentation: frame.blockIndentation, startsLine: frame.blockStartsLine)))
            }
        }
    }

    // MARK: Names

    /// The name's number in the program, or nil (reported) when it is not a valid name.
    private func validatedName(_ content: String, of kind: TagKind, at index: Int) -> Int32? {
        guard !content.isEmpty else {
            if case .variable = kind {
                report("empty tag: expected a name", at: index)
            } else {
                report("\(kind.noun) tag has no name", at: index)
            }
            return nil
        }
        guard !content.utf8.contains(where: Lexer.isWhitespace) else {
            report("'\(content)' is not a valid name: names cannot contain whitespace", at: index)
            return nil
        }
        if content != ".", content.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            report("'\(content)' is not a valid name: a dotted name cannot have an empty part", at: index)
            return nil
        }
        return compiler.program.name(content)
    }

    /// The template a partial or parent tag names: a literal name, or `*name` for a dynamic one.
    private func includedTemplate(_ content: String, of kind: TagKind, at index: Int) -> TemplateReference? {
        guard !content.isEmpty else {
            report("\(kind.noun) tag has no name", at: index)
            return nil
        }
        if content.hasPrefix("*") {
            let dynamicName = String(content.dropFirst()).trimmingLeadingWhitespace
            guard !dynamicName.isEmpty else {
                report("\(kind.noun) tag has no name after '*'", at: index)
                return nil
            }
            return validatedName(dynamicName, of: kind, at: index).map(TemplateReference.dynamic)
        }
        guard !content.utf8.contains(where: Lexer.isWhitespace) else {
            report("'\(content)' is not a valid \(kind.noun) name: names cannot contain whitespace", at: index)
            return nil
        }
        if let template = compiler.resolvePartial(content) { return .resolved(template) }
        if reportsErrors {
            compiler.reportMissingPartial(named: content, kind: kind.noun, at: tokens[index].range.lowerBound)
        }
        return .missing(compiler.program.missingName(content))
    }

    // MARK: Indentation

    /// A standalone partial or parent's indentation, relative to the enclosing block's; nil inline.
    private func standaloneIndentation(at index: Int) -> ByteRange? {
        guard let whitespace = layouts[index].indentation else { return nil }
        let raw = source[whitespace]
        let relative = raw.dropFirst(commonPrefixLength(raw, stack[stack.count - 1].dedent))
        return compiler.program.appendBytes(relative)
    }

    /// A block's own indentation in the source. For a standalone opening tag, that of the first
    /// non-blank line after it (so the content decides, as in `{{$b}}\n  text\n{{/b}}`); otherwise
    /// the whitespace before the tag when only whitespace precedes it on its line.
    private func blockIndentation(at index: Int) -> ArraySlice<UInt8> {
        let tag = tokens[index].range
        if layouts[index].isStandalone {
            var lineStart = lineStart(after: tag.upperBound)
            while lineStart < unit.upperBound {
                var contentStart = lineStart
                while contentStart < unit.upperBound, isSpaceOrTab(source[contentStart]) { contentStart += 1 }
                if contentStart < unit.upperBound, source[contentStart] != UInt8(ascii: "\n"),
                    source[contentStart] != UInt8(ascii: "\r")
                {
                    return source[lineStart..<contentStart]
                }
                lineStart = self.lineStart(after: contentStart)
            }
            return []
        }
        var lineStart = tag.lowerBound
        while lineStart > unit.lowerBound, source[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        let prefix = source[lineStart..<tag.lowerBound]
        return prefix.allSatisfy(isSpaceOrTab) ? prefix : []
    }

    /// The offset just after the next line break at or after `offset`, or the unit's end.
    private func lineStart(after offset: Int) -> Int {
        var position = offset
        while position < unit.upperBound, source[position] != UInt8(ascii: "\n") { position += 1 }
        return min(position + 1, unit.upperBound)
    }

    private func isSpaceOrTab(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private func commonPrefixLength(_ text: ArraySlice<UInt8>, _ indentation: ArraySlice<UInt8>) -> Int {
        var length = 0
        var textIndex = text.startIndex, indentationIndex = indentation.startIndex
        while textIndex < text.endIndex, indentationIndex < indentation.endIndex,
            text[textIndex] == indentation[indentationIndex]
        {
            length += 1
            textIndex += 1
            indentationIndex += 1
        }
        return length
    }

    private func report(_ message: String, at index: Int) {
        guard reportsErrors else { return }
        compiler.report(message, at: index >= 0 ? tokens[index].range.lowerBound : unit.lowerBound)
    }
}

extension TagKind {
    /// Whether a closing tag must follow.
    fileprivate var opensContainer: Bool {
        switch self {
        case .section, .invertedSection, .parent, .block: true
        case .variable, .close, .comment, .partial, .setDelimiters: false
        }
    }
}

extension String {
    fileprivate var trimmingLeadingWhitespace: String {
        String(drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }))
    }
}
