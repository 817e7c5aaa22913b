import StoryModel
import StorySource

/// A named collection's choice of stories (`"latest": {"folder": "blog/", "limit": 3}`): those
/// below a folder (directly in it, or at any depth), with a root component, with a tag, in an
/// order, at most a number of them. The crawl starts from them as from entries; the site model
/// shows them.
public struct StorySelection: Sendable, Hashable {
    /// `blog/`, or `""` for the whole space.
    public var folder: String
    /// Whether stories in sub-folders count too; otherwise only those the folder lists.
    public var recursive: Bool
    /// Only stories whose root block is this component.
    public var component: String?
    public var tag: String?
    public var order: StoryOrder
    public var limit: Int?

    public init(
        folder: String = "", recursive: Bool = false, component: String? = nil, tag: String? = nil,
        order: StoryOrder = .standard, limit: Int? = nil
    ) {
        self.folder = folder
        self.recursive = recursive
        self.component = component
        self.tag = tag
        self.order = order
        self.limit = limit
    }

    /// Whether the selection reads the stories' content (a component, or a `content.` sort key),
    /// not their heads alone: then a change of content may change what it selects.
    public var readsContent: Bool { component != nil || order.readsContent }

    /// What to ask the source for; ``select(from:)`` narrows it down.
    public var query: StoryQuery { StoryQuery(folder: folder, tag: tag) }

    /// The selected stories among `candidates`, in order, at most ``limit``.
    public func select(from candidates: [Story]) -> [Story] {
        let matching = candidates.filter { story in
            query.matches(story) && story.startPageFolder != folder && (recursive || story.listingFolder == folder)
                && (component.map { story.rootComponent == $0 } ?? true)
        }
        let ordered = order.sorted(matching)
        return limit.map { Array(ordered.prefix($0)) } ?? ordered
    }
}
