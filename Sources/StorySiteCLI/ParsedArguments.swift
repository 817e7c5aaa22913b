/// A command line parsed against a ``CommandSpec``, with typed accessors that report bad values
/// as usage errors.
struct ParsedArguments: Sendable {
    let spec: CommandSpec
    private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []
    /// Whether `--help` or `-h` was given.
    private(set) var wantsHelp = false
    /// Whether the tool's version was asked for: `-V`, or `--version` with no value after it
    /// (with one, it may name an option, see ``CommandSpec/Option/valueAlias``).
    private(set) var wantsVersion = false

    /// Parses `arguments` (without the command name). `--name value`, `--name=value` and `--` are
    /// understood; anything else starting with `-` is an unknown option, reported with the
    /// closest option's name when one is close.
    init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        self.spec = spec
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            var name = String(argument.drop(while: { $0 == "-" }))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            let valueFollows = inlineValue != nil || (index < arguments.count && !arguments[index].hasPrefix("-"))
            let aliased = valueFollows ? spec.options.first { $0.valueAlias == name } : nil
            if argument == "-V" || (argument == "--version" && aliased == nil) {
                wantsVersion = true
                continue
            }
            guard argument.hasPrefix("--"), let option = aliased ?? spec.options.first(where: { $0.name == name }) else {
                let written = String(argument.split(separator: "=").first ?? "")
                let hint = EditDistance.didYouMean(name, among: spec.options.map(\.name) + ["help"], prefix: "--")
                throw UsageError(message: "Unknown option '\(written)'" + hint, spec: spec)
            }
            name = option.name
            if option.valueName == nil {
                if inlineValue != nil {
                    throw UsageError(message: "The flag '--\(name)' does not take a value", spec: spec)
                }
                values[name, default: []].append("")
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "Missing value for '\(option.synopsis)'", spec: spec)
            }
            if !option.repeatable, values[name] != nil {
                throw UsageError(message: "The option '--\(name)' was given more than once", spec: spec)
            }
            values[name, default: []].append(value)
        }
        if positionals.count > spec.positionals.count {
            throw UsageError(message: "Unexpected argument '\(positionals[spec.positionals.count])'", spec: spec)
        }
        if !wantsHelp, let missing = spec.positionals.dropFirst(positionals.count).first(where: { !$0.isOptional }) {
            throw UsageError(message: "Missing expected argument '<\(missing.name)>'", spec: spec)
        }
    }

    /// Whether the flag `--name` was given.
    func flag(_ name: String) -> Bool { values[name] != nil }

    /// The value of `--name`, if given.
    func string(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable `--name`, in order.
    func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of `--name` as a whole number in `range`, if given.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            let option = spec.options.first { $0.name == name }?.synopsis ?? "--\(name)"
            throw UsageError(
                message: "The value '\(text)' is invalid for '\(option)': expected a whole number from \(range.lowerBound) to \(range.upperBound)",
                spec: spec)
        }
        return value
    }

    /// The value of `--name`, which must be one of `choices`, if given.
    func choice(_ name: String, _ choices: [String]) throws(UsageError) -> String? {
        guard let text = string(name) else { return nil }
        guard choices.contains(text) else {
            let option = spec.options.first { $0.name == name }?.synopsis ?? "--\(name)"
            throw UsageError(
                message: "The value '\(text)' is invalid for '\(option)': expected one of \(choices.joined(separator: ", "))",
                spec: spec)
        }
        return text
    }

    /// The positional argument at `index`, if given.
    func positional(_ index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }
}

/// A command line that cannot be understood: printed with the usage line and a hint, exit 64.
struct UsageError: Error, Sendable {
    var message: String
    /// The command whose usage to show; nil for the top level.
    var spec: CommandSpec?

    /// The text printed to stderr.
    var report: String {
        var text = "Error: \(message)\n"
        if let spec {
            text += "Usage: \(spec.usage)\n  See 'storysite help \(spec.name)' for more information.\n"
        } else {
            text += "Usage: storysite <command> [options]\n  See 'storysite --help' for more information.\n"
        }
        return text
    }
}
