import SiteOutput
import StoryModel
import StoryRender

/// The tags of the stories that have a page, each with its URL slug (``TagSlug``) and its
/// stories in the `tags/` listing's order. Tags whose names give the same slug (`Swift`,
/// `swift`) are one tag, named as the first story in crawl order writes it.
struct TagIndex: Sendable {
    struct Tag: Sendable {
        var name: String
        var slug: String
        var stories: [Story]

        /// The tag's stories on its pages at `<prefix>tags/<slug>/` (the prefix of a language's
        /// pages, `de/`, or nothing).
        func pages(perPage: Int?, under prefix: String) -> PagedList {
            PagedList(items: stories, perPage: perPage, url: prefix + "tags/\(slug)/")
        }
    }

    /// The tags, by slug.
    private(set) var tags: [Tag] = []
    private var positions: [String: Int] = [:]
    /// Tags that give no slug (empty, or only punctuation), with a story that has each.
    private(set) var unnamed: [(tag: String, story: String)] = []

    /// Indexes the tags of `stories` (in crawl order), ordering each tag's stories by `order`.
    init(stories: [Story], order: StoryOrder) {
        var seenUnnamed: Set<String> = []
        for story in stories {
            for name in story.tags {
                guard let slug = TagSlug.slug(for: name) else {
                    if seenUnnamed.insert(name).inserted { unnamed.append((name, story.fullSlug)) }
                    continue
                }
                if let position = positions[slug] {
                    if tags[position].stories.last?.uuid != story.uuid { tags[position].stories.append(story) }
                } else {
                    positions[slug] = tags.count
                    tags.append(Tag(name: name, slug: slug, stories: [story]))
                }
            }
        }
        tags.sort { $0.slug.utf8Precedes($1.slug) }
        positions = Dictionary(uniqueKeysWithValues: tags.enumerated().map { ($1.slug, $0) })
        for index in tags.indices { tags[index].stories = order.sorted(tags[index].stories) }
    }

    /// Puts the new versions `changed` has in place; each must have the same tags and sort the
    /// same as the one it replaces.
    mutating func replaceVersions(_ changed: StoryVersions) {
        for position in tags.indices { changed.replace(in: &tags[position].stories) }
    }

    /// The tag with this slug.
    func tag(slug: String) -> Tag? {
        positions[slug].map { tags[$0] }
    }

    /// The tag a story's tag name belongs to.
    func tag(named name: String) -> Tag? {
        TagSlug.slug(for: name).flatMap { positions[$0] }.map { tags[$0] }
    }
}
