import StoryModel
import StoryRender

/// A resolver over a handful of stories, with pretty URLs: `home` is `""`, `blog/post` is
/// `blog/post/`, a start page `blog/` is `blog/`. Stories listed in `withoutPage` have none.
struct TestResolver: LinkResolving {
    var stories: [Story]
    var withoutPage: Set<String> = []
    /// Whether tags have pages, at `tags/<tag lower-cased>/`.
    var tagPages = false

    func story(for reference: StoryReference) -> Story? {
        switch reference {
        case .uuid(let uuid): return stories.first { $0.uuid == uuid }
        case .id(let id): return stories.first { $0.id == id }
        case .slug(let slug):
            let wanted = Story.normalizedSlug(slug)
            return stories.first { $0.fullSlug == wanted || $0.fullSlug == wanted + "/" }
        }
    }

    func pageURL(of story: Story) -> String? {
        if withoutPage.contains(story.uuid) { return nil }
        if story.fullSlug == "home" { return "" }
        return story.isStartPage ? story.fullSlug : story.fullSlug + "/"
    }

    func tagPageURL(of tag: String) -> String? {
        tagPages ? "tags/\(tag.lowercased())/" : nil
    }
}

/// A story for tests, with a content of one `page` block.
func makeStory(uuid: String, slug: String, name: String? = nil, id: Int? = nil) -> Story {
    var object = JSONObject([
        "uuid": .string(uuid),
        "full_slug": .string(slug),
        "content": .object(JSONObject(["component": .string("page"), "_uid": .string("c-\(uuid)")])),
    ])
    if let name { object["name"] = .string(name) }
    if let id { object["id"] = .number(Double(id)) }
    return try! Story(json: object)
}

/// The small site most tests link within.
let testStories = [
    makeStory(uuid: "uuid-home", slug: "home", name: "Home"),
    makeStory(uuid: "uuid-about", slug: "about", name: "About us", id: 2),
    makeStory(uuid: "uuid-blog", slug: "blog/", name: "Blog"),
    makeStory(uuid: "uuid-post", slug: "blog/post", name: "A post"),
    makeStory(uuid: "uuid-global", slug: "global", name: "Global"),
]

let testResolver = TestResolver(stories: testStories, withoutPage: ["uuid-global"])

/// Parses inline JSON in tests.
func json(_ text: String) -> JSONValue {
    do {
        return try JSONValue(parsing: text)
    } catch {
        fatalError("test JSON does not parse: \(error)")
    }
}
