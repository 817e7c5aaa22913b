import StoryModel

/// One story reference found in a story's content, in document order.
public struct ExtractedReference: Sendable, Equatable {
    /// Where it sits, from the root block: `body[2].columns[0].link`,
    /// `text.content[3].content[0].marks[0]`, `text.content[2].attrs.body[0].link`.
    public var fieldPath: String
    public var kind: ReferenceKind
    /// The target as written: the UUID when the content gives one, otherwise the slug.
    public var reference: StoryReference
    /// The anchor (`#` not included), when non-empty.
    public var anchor: String?
    /// The slug saved with a story link (`cached_url` or a link mark's `href`), for finding
    /// stale links; nil for other kinds.
    public var cachedURL: String?
    /// The references to try in order to find the target (see ``StoryLink/lookupOrder``).
    public var lookupOrder: [StoryReference]
    /// The target story, when the content already holds it (a resolved link or relation).
    public var embeddedStory: Story?

    public init(
        fieldPath: String, kind: ReferenceKind, reference: StoryReference, anchor: String? = nil,
        cachedURL: String? = nil, lookupOrder: [StoryReference]? = nil, embeddedStory: Story? = nil
    ) {
        self.fieldPath = fieldPath
        self.kind = kind
        self.reference = reference
        self.anchor = anchor
        self.cachedURL = cachedURL
        self.lookupOrder = lookupOrder ?? [reference]
        self.embeddedStory = embeddedStory
    }
}
