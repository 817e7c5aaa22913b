import Foundation

/// The shape of one command's command line: its options and positional arguments, used both to
/// parse arguments and to print help.
struct CommandSpec: Sendable {
    /// One `--long-name` option: a flag, or an option taking a value.
    struct Option: Sendable {
        var name: String
        /// The placeholder for the value (`dir`), or nil for a flag.
        var valueName: String?
        var help: String
        var repeatable = false
        /// Another name for the option that counts as it only when a value follows
        /// (`--version draft` for `--content-version draft`); alone, the name keeps its own
        /// meaning (`--version` shows the tool's version).
        var valueAlias: String?

        static func flag(_ name: String, help: String) -> Option {
            Option(name: name, valueName: nil, help: help)
        }

        static func value(
            _ name: String, _ valueName: String, help: String, repeatable: Bool = false, valueAlias: String? = nil
        ) -> Option {
            Option(name: name, valueName: valueName, help: help, repeatable: repeatable, valueAlias: valueAlias)
        }

        /// `--name <value>` or `--name`.
        var synopsis: String { valueName.map { "--\(name) <\($0)>" } ?? "--\(name)" }
    }

    /// One positional argument.
    struct Positional: Sendable {
        var name: String
        var help: String
        var isOptional = true
    }

    var name: String
    var abstract: String
    var discussion: String = ""
    var options: [Option]
    var positionals: [Positional] = []

    /// The usage line, in the style of Swift's argument parser.
    var usage: String {
        var parts = ["storysite", name]
        for option in options {
            parts.append("[\(option.synopsis)]" + (option.repeatable ? " ..." : ""))
        }
        for positional in positionals {
            parts.append(positional.isOptional ? "[<\(positional.name)>]" : "<\(positional.name)>")
        }
        return parts.joined(separator: " ")
    }

    /// The full help text for `storysite help <name>`.
    var help: String {
        var text = "OVERVIEW: \(abstract)\n\n"
        if !discussion.isEmpty { text += discussion + "\n\n" }
        text += "USAGE: \(usage)\n"
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for positional in positionals { text += Self.helpRow("<\(positional.name)>", positional.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options { text += Self.helpRow(option.synopsis, option.help) }
        text += Self.standardRows
        return text
    }

    /// The options every command and the top level understand.
    static let standardRows = helpRow("-V, --version", "Show the version of storysite.") + helpRow("-h, --help", "Show help information.")

    static func helpRow(_ left: String, _ right: String) -> String {
        let padded = left.count < 24 ? left.padding(toLength: 24, withPad: " ", startingAt: 0) : left + "\n" + String(repeating: " ", count: 26)
        return "  \(padded)\(right)\n"
    }
}
