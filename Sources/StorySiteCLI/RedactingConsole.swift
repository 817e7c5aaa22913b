import StorySource

/// A console that replaces every secret (the access token) before anything is printed, so no
/// message, progress line or error can leak it, whatever produced the text.
struct RedactingConsole: Console {
    let base: any Console
    let secrets: [String]

    func out(_ text: String) { base.out(redact(text)) }
    func err(_ text: String) { base.err(redact(text)) }
    var isTerminal: Bool { base.isTerminal }

    private func redact(_ text: String) -> String {
        secrets.reduce(text) { TokenRedaction.redact($0, token: $1) }
    }
}

extension CommandContext {
    /// This context with its console redacting `secrets`.
    func redacting(_ secrets: [String]) -> CommandContext {
        guard !secrets.isEmpty else { return self }
        var context = self
        context.console = RedactingConsole(base: console, secrets: secrets)
        return context
    }
}
