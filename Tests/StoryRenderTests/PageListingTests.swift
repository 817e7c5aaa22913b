import Mustache
import StoryModel
import StoryRender
import Testing

@Suite("Listings, pagination, collections and tags on pages")
struct PageListingTests {
    private let posts = [
        parseStory(#"{"uuid": "u-1", "full_slug": "blog/one", "name": "One", "first_published_at": "2024-01-01", "tag_list": ["Swift", "news"], "content": {"component": "post", "_uid": "1", "excerpt": "First *post* & more"}}"#),
        parseStory(#"{"uuid": "u-2", "full_slug": "blog/two", "name": "Two", "published_at": "2024-02-02", "content": {"component": "post", "_uid": "2", "body": {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": "See ", "marks": [{"type": "link", "attrs": {"linktype": "story", "uuid": "uuid-about"}}]}]}]}}}"#),
        parseStory(#"{"uuid": "u-sub", "full_slug": "blog/archive/", "name": "Archive", "content": {"component": "page", "_uid": "3"}}"#),
    ]

    private func renderer(_ templates: [String: String], tagPages: Bool = false, collections: [(name: String, stories: [Story])] = []) throws -> PageRenderer {
        PageRenderer(
            library: try library(templates),
            resolver: TestResolver(stories: testStories + posts, withoutPage: ["uuid-global"], tagPages: tagPages),
            collections: collections, baseURL: "https://site.example/")
    }

    private var blog: Story { testStories.first { $0.uuid == "uuid-blog" }! }

    @Test("page.children lists items with their identity, dates, tags, is_folder and prepared content")
    func children() throws {
        let templates = ["pages/default": "{{#page.children}}[{{name}}|{{href}}|{{slug}}|{{full_slug}}|{{uuid}}|{{first_published_at}}|{{published_at}}|{{#is_folder}}folder{{/is_folder}}|{{#tag_list}}{{.}},{{/tag_list}}|{{content.excerpt}}]{{/page.children}}"]
        let page = try renderer(templates).render(blog, listing: PageListing(children: posts))
        #expect(page.html == "[One|one/|one|blog/one|u-1|2024-01-01|||Swift,news,|First *post* &amp; more][Two|two/|two|blog/two|u-2||2024-02-02|||][Archive|archive/|archive|blog/archive/|u-sub|||folder||]")
    }

    @Test("pagination gives current, total, prev and next at the ends, and every page with its href")
    func pagination() throws {
        let templates = ["pages/default": "{{#page.pagination}}{{current}}/{{total}} prev={{prev}} next={{next}} {{#pages}}({{number}} {{href}}{{#current}} *{{/current}}){{/pages}}{{/page.pagination}} url={{page.url}} canonical={{page.canonical}}"]
        let first = try renderer(templates).render(blog, listing: PageListing(children: [], pagination: Pagination(current: 1, total: 3, firstPageURL: "blog/")))
        #expect(first.html == "1/3 prev= next=page/2/ (1 ./ *)(2 page/2/)(3 page/3/) url=blog/ canonical=https://site.example/blog/")
        let last = try renderer(templates).render(
            blog, listing: PageListing(children: [], pagination: Pagination(current: 3, total: 3, firstPageURL: "blog/")), url: "blog/page/3/")
        #expect(last.html == "3/3 prev=../2/ next= (1 ../../)(2 ../2/)(3 ./ *) url=blog/page/3/ canonical=https://site.example/blog/page/3/")
    }

    @Test("page.feed is the feed's href from the page")
    func feed() throws {
        let page = try renderer(["pages/default": "{{page.feed}}"]).render(posts[0], listing: PageListing(feedURL: "blog/feed.xml"))
        #expect(page.html == "../feed.xml")
    }

    @Test("every page sees the named collections, with hrefs from that page")
    func collections() throws {
        let templates = ["pages/default": "{{#collections.latest}}<a href=\"{{href}}\">{{name}}</a>{{/collections.latest}}"]
        let page = try renderer(templates, collections: [("latest", Array(posts.prefix(2)))]).render(testStories[1])
        #expect(page.html == #"<a href="../blog/one/">One</a><a href="../blog/two/">Two</a>"#)
    }

    @Test("story.tags link to tag pages when there are any, and are names alone otherwise")
    func storyTags() throws {
        let templates = ["pages/post": "{{#story.tags}}{{name}}{{#href}}→{{href}}{{/href}};{{/story.tags}}"]
        #expect(try renderer(templates, tagPages: true).render(posts[0]).html == "Swift→../../tags/swift/;news→../../tags/news/;")
        #expect(try renderer(templates).render(posts[0]).html == "Swift;news;")
    }

    @Test("a tag page sees its tag and the stories with it; the tag index every tag with its count")
    func tagPages() throws {
        let templates = [
            "pages/tag": "{{tag.name}}/{{tag.slug}}/{{tag.count}}: {{#page.children}}{{href}} {{/page.children}}{{#page.breadcrumbs}}<{{href}}>{{/page.breadcrumbs}}",
            "pages/tags": "{{#tags}}{{name}}={{href}}({{count}}) {{/tags}}",
        ]
        let tag = TagPage(name: "Swift", slug: "swift", count: 1, url: "tags/swift/", listing: PageListing(children: [posts[0]]))
        #expect(try renderer(templates).render(tag: tag).html == "Swift/swift/1: ../../blog/one/ <../../>")
        let index = try renderer(templates).render(
            tagIndex: [TagSummary(name: "Swift", slug: "swift", url: "tags/swift/", count: 1)], url: "tags/")
        #expect(index.html == "Swift=swift/(1) ")
    }

    @Test("a feed summary is a field's HTML with absolute links: richtext rendered, a string as Markdown")
    func summaries() throws {
        let renderer = try renderer([:])
        #expect(renderer.summaryHTML(of: posts[1], field: "body") == #"<p><a href="https://site.example/about/">See </a></p>"#)
        #expect(renderer.summaryHTML(of: posts[0], field: "excerpt") == "<p>First <em>post</em> &amp; more</p>\n")
        #expect(renderer.summaryHTML(of: posts[0], field: "missing") == nil)
    }
}
