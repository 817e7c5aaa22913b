import Mustache
import StoryModel

/// The values a page template sees besides the prepared blocks: `story`, `page`, `site`.
enum PageContext {
    /// `story`: the story's identity and metadata, with `tags` (`name`, and `href` when tags
    /// have pages) and `content` (the prepared root block). `id` (the numeric id), `alternates`
    /// and `translated_slugs` (lists, as in the story JSON) and `parent` are there only when the
    /// story has them.
    static func story(_ story: Story, content: MustacheObject, links: PageLinks, language: String?) -> MustacheValue {
        func text(_ key: String) -> MustacheValue { story.string(key).map(MustacheValue.string) ?? .null }
        var fields = MustacheObject(minimumCapacity: 14)
        fields.append(new: "name", .string(story.name))
        fields.append(new: "slug", .string(story.slug))
        fields.append(new: "full_slug", .string(story.fullSlug))
        fields.append(new: "uuid", .string(story.uuid))
        if let id = story.id { fields.append(new: "id", .number(Double(id))) }
        fields.append(new: "published_at", text("published_at"))
        fields.append(new: "first_published_at", text("first_published_at"))
        fields.append(new: "tag_list", .array(story.tags.map(MustacheValue.string)))
        fields.append(new: "tags", tags(of: story, links: links))
        fields.append(new: "lang", language.map(MustacheValue.string) ?? text("lang"))
        for key in ["alternates", "translated_slugs"] {
            if case .array(let list)? = story.field(key) { fields.append(new: key, plain(.array(list))) }
        }
        if let parent = parent(of: story, links: links) { fields.append(new: "parent", parent) }
        fields.append(new: "content", .object(content))
        return .object(fields)
    }

    /// `story.parent`: the start page of the folder that lists `story` (`blog/` for `blog/post`
    /// and for `blog/2024/`), as `name`, `href`, `full_slug`, `slug` and `uuid`; nil in the
    /// root folder, and when the folder has no start page with a page (not its grandparent
    /// folder's). Looked up as ``breadcrumbs(of:resolver:)`` looks up theirs.
    static func parent(of story: Story, links: PageLinks) -> MustacheValue? {
        let folder = story.listingFolder
        guard !folder.isEmpty, let start = links.resolver.story(for: .slug(folder)), start.isStartPage,
              start.uuid != story.uuid, let href = links.href(to: start) else { return nil }
        var fields = MustacheObject(minimumCapacity: 5)
        fields.append(new: "name", .string(start.name))
        fields.append(new: "href", .string(href))
        fields.append(new: "full_slug", .string(start.fullSlug))
        fields.append(new: "slug", .string(start.slug))
        fields.append(new: "uuid", .string(start.uuid))
        return .object(fields)
    }

    /// A story's tags: `name`, and `href` when the tag has a page (null otherwise).
    static func tags(of story: Story, links: PageLinks) -> MustacheValue {
        .array(story.tags.map { tag in
            var fields = MustacheObject(minimumCapacity: 2)
            fields.append(new: "name", .string(tag))
            // Null rather than absent, so that `{{#href}}` does not find an enclosing link instead.
            fields.append(new: "href", links.resolver.tagPageURL(of: tag).map { .string(links.href(toSiteURL: $0)) } ?? .null)
            return .object(fields)
        })
    }

    /// `page`: `url`, `root`, `canonical` (with a base URL), `breadcrumbs` and `backlinks`
    /// (each a list of `name` and `href`).
    static func page(
        url: String, root: String, baseURL: String?, breadcrumbs: [LinkedPage], backlinks: [LinkedPage], links: PageLinks
    ) -> MustacheObject {
        var page: MustacheObject = [
            "url": .string(PercentEncoding.path(url)),
            "root": .string(root),
            "breadcrumbs": .array(namedLinks(breadcrumbs, links: links)),
            "backlinks": .array(namedLinks(backlinks, links: links)),
        ]
        if let baseURL, !baseURL.isEmpty {
            page["canonical"] = .string(PercentEncoding.absoluteURL(url, under: baseURL))
        }
        return page
    }

    /// `page.pagination`: `current`, `total`, `prev` and `next` (hrefs, absent at the ends) and
    /// `pages` (`number`, `href`, `current`), made only when a template reads it: a listing of a
    /// thousand pages would otherwise make a million links that most themes never show.
    static func pagination(_ pagination: Pagination, links: PageLinks) -> MustacheValue {
        let current = pagination.current
        var fields: MustacheObject = [
            "current": .number(Double(current)),
            "total": .number(Double(pagination.total)),
            "pages": .lazy(MustacheLazyValue {
                .array((1...max(1, pagination.total)).map { number in
                    let href = links.href(toSiteURL: pagination.pageURL(number))
                    return ["number": .number(Double(number)), "href": .string(href), "current": .bool(number == current)]
                })
            }),
        ]
        if current > 1 { fields["prev"] = .string(links.href(toSiteURL: pagination.pageURL(current - 1))) }
        if current < pagination.total { fields["next"] = .string(links.href(toSiteURL: pagination.pageURL(current + 1))) }
        return .object(fields)
    }

    /// `page.translations`: each version's `lang`, `name`, `href`, `url` (absolute, with a base
    /// URL) and `current`.
    static func translations(_ translations: [PageTranslation], links: PageLinks, baseURL: String?) -> MustacheValue {
        .array(translations.map { translation in
            var fields: MustacheObject = [
                "lang": .string(translation.lang), "name": .string(translation.name),
                "href": .string(links.href(toSiteURL: translation.url)), "current": .bool(translation.current),
            ]
            if let baseURL, !baseURL.isEmpty { fields["url"] = .string(PercentEncoding.absoluteURL(translation.url, under: baseURL)) }
            return .object(fields)
        })
    }

    /// `site`: the `site` object of `storysite.json` and `base_url`.
    static func site(_ site: JSONValue, baseURL: String?) -> MustacheValue {
        var fields = MustacheObject()
        if case .object(let object) = site {
            for entry in object { fields.append(new: entry.key, plain(entry.value)) }
        }
        fields["base_url"] = .string(baseURL ?? "")
        return .object(fields)
    }

    /// The start pages of the folders `story` lives in, from the top, starting with the root
    /// story (home) when `story` is not at the root; folders without a start page are skipped.
    static func breadcrumbs(of story: Story, resolver: any LinkResolving) -> [LinkedPage] {
        var crumbs: [LinkedPage] = []
        let home = resolver.page(for: .slug(resolver.rootSlug))
        if let home, home.story.uuid != story.uuid, resolver.pageURL(of: story) != "" { crumbs.append(home) }
        let segments = story.fullSlug.partsBetweenSlashes()
        guard segments.count > 1 else { return crumbs }
        for depth in 1..<segments.count {
            let folder = segments[..<depth].joined(separator: "/") + "/"
            guard let start = resolver.page(for: .slug(folder)), start.story.isStartPage, start.story.uuid != story.uuid,
                  start.story.uuid != home?.story.uuid else { continue }
            crumbs.append(start)
        }
        return crumbs
    }

    /// `name` and `href` of each page that has a URL.
    private static func namedLinks(_ pages: [LinkedPage], links: PageLinks) -> [MustacheValue] {
        pages.compactMap { page in
            guard let href = links.href(to: page) else { return nil }
            var link = MustacheObject(minimumCapacity: 2)
            link.append(new: "name", .string(page.story.name))
            link.append(new: "href", .string(href))
            return .object(link)
        }
    }

    /// A JSON value as it is.
    static func plain(_ value: JSONValue) -> MustacheValue {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .number(let number): return .number(number)
        case .string(let string): return .string(string)
        case .array(let elements): return .array(elements.map(plain))
        case .object(let object):
            var fields = MustacheObject(minimumCapacity: object.count)
            for entry in object { fields.append(new: entry.key, plain(entry.value)) }
            return .object(fields)
        }
    }
}
