/// Keeps the access token out of anything shown: messages, logs, descriptions.
public enum TokenRedaction {
    /// What the token is replaced with.
    public static let mask = "***"

    /// `text` with every occurrence of `token` (as given and percent-encoded) replaced by
    /// `***`. An empty token changes nothing.
    public static func redact(_ text: String, token: String) -> String {
        guard !token.isEmpty else { return text }
        var redacted = text.replacing(token, with: mask)
        let encoded = StoryblokRequest.encodeQueryValue(token)
        if encoded != token { redacted = redacted.replacing(encoded, with: mask) }
        return redacted
    }
}
