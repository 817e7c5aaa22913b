import Mustache
import StoryCrawl
import StoryModel
import Testing
@testable import StoryRender

/// What block preparation made of one value of a story's JSON.
private enum Prepared {
    /// A multilink, with its href.
    case link(href: String)
    /// A story summary: a relation, or an embedded story.
    case relation(uuid: String)
    case asset
    /// A richtext document, as HTML.
    case richtext(html: String)
    /// A string shown as it is (the template's markdown section may resolve links in it).
    case text
    /// Any other value shown as it is.
    case other
}

@Suite("Block preparation agrees with the crawl")
struct BlockPreparationTests {
    private static let about = "a0000000-0000-4000-8000-000000000001"
    private static let post = "a0000000-0000-4000-8000-000000000002"
    private static let team = "a0000000-0000-4000-8000-000000000003"
    /// Linked only where the render shows no link: a second link mark, a link mark on a paragraph.
    private static let unlinked = "a0000000-0000-4000-8000-000000000005"

    /// A story holding every case the crawl and the render once classified differently.
    private static let guide = parseStory(#"""
        {"uuid": "a0000000-0000-4000-8000-000000000004", "full_slug": "docs/guide", "name": "Guide", "content": {
          "component": "page", "_uid": "root",
          "uuid": "\#(about)",
          "author": "\#(post)",
          "related": ["\#(about)", "\#(team)"],
          "categories": ["option-1", "\#(about)"],
          "link": {"fieldtype": "multilink", "linktype": "story", "id": "\#(about)", "cached_url": "about", "anchor": "team"},
          "custom_link": {"fieldtype": "custom", "linktype": "story", "id": "\#(team)", "cached_url": "team"},
          "site_link": {"fieldtype": "multilink", "linktype": "url", "url": "/blog/post", "cached_url": "/blog/post"},
          "external": {"fieldtype": "multilink", "linktype": "url", "url": "https://example.com/", "cached_url": ""},
          "image": {"fieldtype": "asset", "filename": "/assets/a.png", "alt": "[a](/about)"},
          "bare_image": {"filename": "/assets/b.png", "alt": "[b](/team)"},
          "plugin": {"plugin": "picker", "selected": "\#(about)", "note": "[n](/about)"},
          "intro": "Read [the post](/blog/post).",
          "table": {"fieldtype": "table", "type": "doc", "thead": [], "tbody": [{"_uid": "r", "component": "_table_row",
            "body": [{"_uid": "c", "component": "_table_col", "value": "\#(team)"}]}]},
          "text": {"type": "doc", "linktype": "story", "cached_url": "gone", "content": [
            {"type": "paragraph", "content": [{"type": "text", "text": "about",
              "marks": [{"type": "link", "attrs": {"uuid": "\#(about)", "href": "/about", "linktype": "story"}}]}]},
            {"type": "paragraph", "marks": [{"type": "link", "attrs": {"uuid": "\#(unlinked)", "linktype": "story"}}],
             "content": [{"type": "text", "text": "two links", "marks": [{"type": "bold"},
               {"type": "link", "attrs": {"uuid": "\#(team)", "href": "/team", "linktype": "story"}},
               {"type": "link", "attrs": {"uuid": "\#(unlinked)", "linktype": "story"}}]}]},
            {"type": "blok", "attrs": {"body": [
              {"fieldtype": "multilink", "linktype": "story", "id": "\#(post)", "cached_url": "blog/post"},
              {"component": "button", "_uid": "b", "uuid": "\#(post)", "related": ["\#(about)"],
               "link": {"fieldtype": "multilink", "linktype": "story", "id": "\#(team)", "cached_url": "team"}}]}}]},
          "featured": {"uuid": "\#(post)", "full_slug": "blog/post", "name": "A post", "content": {"component": "page", "_uid": "p"}},
          "fake_story": {"uuid": "\#(about)", "full_slug": "about", "content": "not a block"},
          "body": [{"component": "card", "_uid": "k", "uuid": "\#(team)", "tags": ["\#(team)"],
            "link": {"linktype": "story", "id": "\#(post)", "cached_url": "blog/post"}}]
        }}
        """#)

    private static let stories = [
        guide,
        makeStory(uuid: about, slug: "about", name: "About"),
        makeStory(uuid: post, slug: "blog/post", name: "A post"),
        makeStory(uuid: team, slug: "team", name: "Team"),
        makeStory(uuid: unlinked, slug: "unlinked", name: "Unlinked"),
    ]

    @Test("every story link and relation the render shows is a crawl edge there, and every crawl edge is one the render shows")
    func agreement() throws {
        let resolver = TestResolver(stories: Self.stories)
        let links = PageLinks(resolver: resolver, pageURL: "docs/guide/", fullSlug: "docs/guide")
        let preparation = BlockPreparation(links: links, story: "docs/guide", log: RenderLog(), relationLevels: 2) { block, _ in
            Self.anchors(in: .object(block))
        }
        let root = try #require(Self.guide.content.objectValue)
        var prepared: [(path: String, what: Prepared)] = []
        Self.pair(.object(root), .object(preparation.block(of: Self.guide)), path: "", into: &prepared)
        let edges = ReferenceExtractor.references(in: Self.guide, baseURL: nil)

        var storiesByHref: [String: Story] = [:]
        for story in Self.stories { storiesByHref[try #require(links.href(to: story))] = story }
        func story(at href: String) -> Story? {
            storiesByHref[String(href.prefix { $0 != "#" })]
        }
        func target(of edge: ExtractedReference) -> Story? {
            edge.lookupOrder.lazy.compactMap(resolver.story(for:)).first
        }

        // What the render shows as a link to a story or as a relation is a crawl edge to that story.
        var storyLinkPaths: [String] = [], relationPaths: [String] = []
        for (path, what) in prepared {
            switch what {
            case .link(let href):
                guard let linked = story(at: href) else { continue }
                storyLinkPaths.append(path)
                #expect(edges.contains { $0.fieldPath == path && $0.kind == .multilink && target(of: $0) == linked },
                        "the render links \(path) to \(linked.fullSlug); the crawl has no such edge")
            case .relation(let uuid):
                relationPaths.append(path)
                #expect(edges.contains { $0.fieldPath == path && $0.kind == .relation && $0.reference == .uuid(uuid) },
                        "the render lists \(uuid) at \(path); the crawl has no such relation")
            case .richtext(let html):
                for href in Self.hrefs(in: html) {
                    guard let linked = story(at: href) else { continue }
                    #expect(edges.contains { $0.fieldPath.hasPrefix(path + ".") && target(of: $0) == linked },
                            "the render links \(path) to \(linked.fullSlug); the crawl has no such edge")
                }
            case .asset, .text, .other:
                continue
            }
        }
        #expect(storyLinkPaths == ["link", "custom_link", "site_link", "body[0].link"])
        #expect(relationPaths == ["author", "related[0]", "related[1]", "table.tbody[0].body[0].value", "featured", "body[0].tags[0]"])

        // Every crawl edge is a link or relation the render shows there (or a Markdown link in
        // a string it shows as text); none comes from an asset or another plain value.
        for edge in edges {
            guard let expectedHref = target(of: edge).flatMap({ links.href(to: $0, anchor: edge.anchor) }) else {
                Issue.record("the crawl finds a \(edge.kind) at \(edge.fieldPath) to \(edge.reference), which has no page")
                continue
            }
            if let exact = prepared.first(where: { $0.path == edge.fieldPath }) {
                switch (edge.kind, exact.what) {
                case (.multilink, .link(let href)): #expect(href == expectedHref, "\(edge.fieldPath)")
                case (.relation, .relation(let uuid)): #expect(edge.reference == .uuid(uuid), "\(edge.fieldPath)")
                case (.markdown, .text): continue
                default: Issue.record("the crawl finds a \(edge.kind) at \(edge.fieldPath), which the render shows as \(exact.what)")
                }
            } else if let enclosing = prepared.first(where: { edge.fieldPath.hasPrefix($0.path + ".") }) {
                guard case .richtext(let html) = enclosing.what else {
                    Issue.record("the crawl finds a \(edge.kind) at \(edge.fieldPath), inside what the render shows as \(enclosing.what)")
                    continue
                }
                #expect(Self.hrefs(in: html).contains(expectedHref), "\(edge.fieldPath) → \(expectedHref) is not in \(html)")
            } else {
                Issue.record("the crawl finds a \(edge.kind) at \(edge.fieldPath), where the render shows nothing")
            }
        }
    }

    /// Walks a JSON value and what preparation made of it side by side, recording what each
    /// value became at its field path (written as the crawl writes them).
    private static func pair(_ json: JSONValue, _ value: MustacheValue, path: String, into prepared: inout [(path: String, what: Prepared)]) {
        func child(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
        switch (json, value) {
        case (.string, .array(let summaries)):  // one relation, listed
            for case .object(let summary) in summaries {
                prepared.append((path, .relation(uuid: summary["uuid"].flatMap(Self.string) ?? "")))
            }
        case (.string, .object(let summary)):  // one element of a list of relations
            prepared.append((path, .relation(uuid: summary["uuid"].flatMap(Self.string) ?? "")))
        case (.string, .string):
            prepared.append((path, .text))
        case (.array(let elements), .array(let values)):
            for (index, (element, value)) in zip(elements, values).enumerated() {
                pair(element, value, path: path + "[\(index)]", into: &prepared)
            }
        case (.object, .html(let html)):
            prepared.append((path, .richtext(html: html)))
        case (.object(let object), .object(let fields)):
            if fields["exists"] != nil {
                prepared.append((path, .link(href: fields["href"].flatMap(Self.string) ?? "")))
            } else if fields["href"] != nil {  // an embedded story, summarised
                prepared.append((path, .relation(uuid: fields["uuid"].flatMap(Self.string) ?? "")))
            } else if fields["src"] != nil {
                prepared.append((path, .asset))
            } else {
                for entry in object {
                    guard let field = fields[entry.key] else { continue }
                    pair(entry.value, field, path: child(entry.key), into: &prepared)
                }
            }
        default:
            prepared.append((path, .other))
        }
    }

    /// Stands in for a block's template: an `<a>` for every href in it (not in the content of
    /// the stories it lists).
    private static func anchors(in value: MustacheValue) -> String {
        switch value {
        case .array(let elements):
            return elements.map(anchors(in:)).joined()
        case .object(let object):
            return object.members.map { member in
                switch (member.name, member.value) {
                case ("href", .string(let href)): return #"<a href="\#(href)"></a>"#
                case ("content", _): return ""
                default: return anchors(in: member.value)
                }
            }.joined()
        default:
            return ""
        }
    }

    /// The `href` attribute values in `html`.
    private static func hrefs(in html: String) -> [String] {
        html.components(separatedBy: #"href=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    private static func string(_ value: MustacheValue) -> String? {
        if case .string(let string) = value { return string }
        return nil
    }
}
