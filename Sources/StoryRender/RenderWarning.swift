/// A problem found while rendering that does not stop the page: a broken story link, a URL or
/// style refused for safety, a missing component template. Names the story and the field path.
public struct RenderWarning: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// A story link whose target is not loaded or has no page; the href falls back to the
        /// link's saved URL.
        case brokenLink
        /// A `javascript:` (or other script or data) URL, rendered without it.
        case unsafeURL
        /// A style value or attribute refused because it could inject CSS or script.
        case unsafeAttribute
        /// A date section (`{{#date}}…{{/date}}`) whose text is not a date, shown as it is.
        case notADate
    }

    /// The kind of problem.
    public var kind: Kind
    /// The `full_slug` of the story being rendered.
    public var story: String
    /// Where in the story: `body[2].text.content[0].content[1]`; for a URL a template refused,
    /// where the template wrote it: `Templates/components/cta.mustache:6:39`.
    public var fieldPath: String
    /// What is wrong, for a person.
    public var message: String

    public init(kind: Kind, story: String, fieldPath: String, message: String) {
        self.kind = kind
        self.story = story
        self.fieldPath = fieldPath
        self.message = message
    }

    public var description: String { "\(story): \(fieldPath): \(message)" }
}
