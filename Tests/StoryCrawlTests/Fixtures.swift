import Foundation
import StoryModel
import StorySource
import Testing

/// A story from its identity and the JSON text of its root block's fields after `component`.
func story(_ uuid: String, _ slug: String, id: Int? = nil, fields: String = "") throws -> Story {
    try Story(json: try #require(try JSONValue(parsing: storyText(uuid, slug, id: id, fields: fields)).objectValue))
}

/// The JSON text of a story, for fixture files.
func storyText(_ uuid: String, _ slug: String, id: Int? = nil, fields: String = "") -> String {
    let idField = id.map { #""id": \#($0), "# } ?? ""
    let rest = fields.isEmpty ? "" : ", " + fields
    return #"{\#(idField)"uuid": "\#(uuid)", "full_slug": "\#(slug)", "content": {"_uid": "root-\#(uuid)", "component": "page"\#(rest)}}"#
}

/// A story multilink field value.
func storyLink(_ id: String, cached: String = "", anchor: String? = nil) -> String {
    let anchorField = anchor.map { #", "anchor": "\#($0)""# } ?? ""
    return #"{"fieldtype": "multilink", "linktype": "story", "id": "\#(id)", "url": "", "cached_url": "\#(cached)"\#(anchorField)}"#
}

/// A block with one `link` field.
func linkBlock(_ link: String) -> String {
    #"{"_uid": "b", "component": "button", "link": \#(link)}"#
}

/// An in-memory source that records every batch it is asked, to check batching and that
/// nothing is fetched twice.
actor RecordingSource: StorySource {
    nonisolated let description = "Memory/"
    private let all: [Story]
    private let listsStories: Bool
    private(set) var batches: [[StoryReference]] = []

    init(_ stories: [Story], listsStories: Bool = true) {
        all = stories
        self.listsStories = listsStories
    }

    func stories(for references: [StoryReference]) async throws -> [StoryReference: Story] {
        batches.append(references)
        var found: [StoryReference: Story] = [:]
        for reference in references {
            let match = all.first { story in
                switch reference {
                case .uuid(let uuid): story.uuid == uuid
                case .slug(let slug): SlugLookup.key(story.fullSlug) == SlugLookup.key(slug)
                case .id(let id): story.id == id
                }
            }
            if let match { found[reference] = match }
        }
        return found
    }

    func allStories() async throws -> [Story]? {
        listsStories ? all : nil
    }

    /// Every query asked, in order.
    private(set) var queries: [StoryQuery] = []

    func stories(matching query: StoryQuery) async throws -> [Story] {
        queries.append(query)
        return all.filter { query.matches($0) }.sorted { $0.fullSlug.utf8.lexicographicallyPrecedes($1.fullSlug.utf8) }
    }
}
