import Mustache
import StoryModel
import StoryRender
import Testing

/// A story parsed from inline JSON (a bare story object).
func parseStory(_ text: String) -> Story {
    guard case .object(let object) = json(text) else { fatalError("not a story object: \(text)") }
    do {
        return try Story(json: object)
    } catch {
        fatalError("not a story: \(error)")
    }
}

/// A library with a plain layout, a default page that renders `body`, and `extra` templates.
func library(_ extra: [String: String] = [:]) throws -> TemplateLibrary {
    var templates = [
        "layout": "<main>{{$main}}{{/main}}</main>",
        "pages/default": "{{<layout}}{{$main}}{{#body}}{{>*component}}{{/body}}{{/main}}{{/layout}}",
    ]
    for (name, text) in extra { templates[name] = text }
    return try TemplateLibrary(templates: templates)
}

/// The page a story with `content` (a root block's JSON) renders to at `blog/post`.
func renderPost(_ content: String, templates: [String: String], markdownUnsafe: Bool = false) throws -> RenderedPage {
    let post = parseStory(#"{"uuid": "uuid-post", "full_slug": "blog/post", "name": "A post", "content": \#(content)}"#)
    var stories = testStories.filter { $0.uuid != "uuid-post" }
    stories.append(post)
    let renderer = PageRenderer(
        library: try library(templates), resolver: TestResolver(stories: stories, withoutPage: ["uuid-global"]),
        baseURL: "https://site.example/", markdownUnsafe: markdownUnsafe)
    return try renderer.render(post)
}

@Suite("Pages render through the templates")
struct PageRendererTests {
    @Test("the page template for the root component extends the layout; blocks render with their component")
    func pageTemplate() throws {
        let templates = [
            "pages/post": "{{<layout}}{{$main}}<h1>{{story.name}}</h1>{{#body}}{{>*component}}{{/body}}{{/main}}{{/layout}}",
            "components/teaser": "<p>{{title}}</p>",
        ]
        let page = try renderPost(
            #"{"component": "post", "_uid": "1", "body": [{"component": "teaser", "_uid": "2", "title": "Hello <you>"}]}"#,
            templates: templates)
        #expect(page.html == "<main><h1>A post</h1><p>Hello &lt;you&gt;</p></main>")
        #expect(page.missingComponents.isEmpty)
        #expect(page.warnings.isEmpty)
    }

    @Test("a root component without its own template uses pages/default")
    func defaultTemplate() throws {
        let page = try renderPost(#"{"component": "landing", "_uid": "1", "body": []}"#, templates: [:])
        #expect(page.html == "<main></main>")
    }

    @Test("without a fitting page template the page fails, naming the story and the templates to add")
    func noPageTemplate() throws {
        let renderer = PageRenderer(library: try TemplateLibrary(templates: ["layout": ""]), resolver: testResolver)
        let error = #expect(throws: PageRenderError.self) { try renderer.render(testStories[1]) }
        #expect(error?.description == "about: no page template: add Templates/pages/page.mustache or Templates/pages/default.mustache")
    }

    @Test("a story without a page cannot be rendered as one")
    func storyWithoutPage() throws {
        let renderer = PageRenderer(library: try library(), resolver: testResolver)
        #expect(throws: PageRenderError.self) { try renderer.render(testStories[4]) }
    }

    @Test("a missing component template is reported by name and renders empty")
    func missingComponent() throws {
        let page = try renderPost(
            #"{"component": "post", "_uid": "1", "body": [{"component": "video", "_uid": "2"}, {"component": "map", "_uid": "3"}, {"component": "video", "_uid": "4"}]}"#,
            templates: [:])
        #expect(page.html == "<main></main>")
        #expect(page.missingComponents == ["map", "video"])
    }

    @Test("the page template sees story, page, site, global and the root block's fields")
    func pageContext() throws {
        let home = parseStory(#"{"uuid": "uuid-home", "full_slug": "home", "name": "Home", "content": {"component": "page", "_uid": "h"}}"#)
        let blog = parseStory(#"{"uuid": "uuid-blog", "full_slug": "blog/", "name": "Blog", "content": {"component": "page", "_uid": "b"}}"#)
        let year = parseStory(#"{"uuid": "uuid-2024", "full_slug": "blog/2024/", "name": "2024", "content": {"component": "page", "_uid": "y"}}"#)
        let post = parseStory(#"""
            {"uuid": "uuid-post", "full_slug": "blog/2024/news/post", "name": "A <post>", "slug": "post", "lang": "default",
             "published_at": "2024-05-01T10:00:00.000Z", "first_published_at": null, "tag_list": ["a", "b"],
             "content": {"component": "post", "_uid": "p", "title": "Title", "story": "shadowed", "count": 3}}
            """#)
        let global = parseStory(#"""
            {"uuid": "uuid-global", "full_slug": "global", "name": "Global",
             "content": {"component": "global", "_uid": "g", "footer": "© Kestrel",
                         "home_link": {"id": "uuid-home", "url": "", "linktype": "story", "fieldtype": "multilink", "cached_url": "home"}}}
            """#)
        let fan = parseStory(#"{"uuid": "uuid-fan", "full_slug": "fans/fan", "name": "A fan", "content": {"component": "page", "_uid": "f"}}"#)
        let resolver = TestResolver(stories: [home, blog, year, post, global, fan], withoutPage: ["uuid-global"])
        let template = """
            {{story.name}}|{{story.slug}}|{{story.full_slug}}|{{story.uuid}}|{{story.published_at}}|{{story.first_published_at}}|\
            {{#story.tag_list}}{{.}},{{/story.tag_list}}|{{story.lang}}|{{story.content.title}}|{{title}}|{{count}}|{{story.content.story}}
            {{page.url}}|{{page.root}}|{{page.canonical}}
            {{#page.breadcrumbs}}<a href="{{href}}">{{name}}</a>{{/page.breadcrumbs}}
            {{#page.backlinks}}<a href="{{href}}">{{name}}</a>{{/page.backlinks}}
            {{site.title}}|{{site.base_url}}|{{site.nested.value}}
            {{global.footer}}|{{global.home_link.href}}
            """
        let renderer = PageRenderer(
            library: try TemplateLibrary(templates: ["pages/post": template]), resolver: resolver,
            site: json(#"{"title": "Kestrel & co", "nested": {"value": 1}}"#), global: global, baseURL: "https://site.example/docs")
        let page = try renderer.render(post, backlinks: [fan, global].map { LinkedPage(story: $0, url: resolver.pageURL(of: $0)) })
        #expect(page.html == """
            A &lt;post&gt;|post|blog/2024/news/post|uuid-post|2024-05-01T10:00:00.000Z||a,b,|default|Title|Title|3|shadowed
            blog/2024/news/post/|../../../../|https://site.example/docs/blog/2024/news/post/
            <a href="../../../../">Home</a><a href="../../../">Blog</a><a href="../../">2024</a>
            <a href="../../../../fans/fan/">A fan</a>
            Kestrel &amp; co|https://site.example/docs|1
            © Kestrel|../../../../
            """)
        #expect(page.warnings.isEmpty)
    }

    @Test("home has no breadcrumbs and no canonical URL without a base URL")
    func homeContext() throws {
        let renderer = PageRenderer(
            library: try TemplateLibrary(templates: ["pages/page": "[{{#page.breadcrumbs}}{{name}}{{/page.breadcrumbs}}]{{page.root}}|{{page.url}}|{{page.canonical}}"]),
            resolver: testResolver)
        #expect(try renderer.render(testStories[0]).html == "[]./||")
        #expect(try renderer.render(testStories[2]).html == "[Home]../|blog/|")
    }

    @Test("multilinks get an href relative to the page, target, linktype, title and exists")
    func multilinks() throws {
        let content = #"""
            {"component": "post", "_uid": "1", "body": [{"component": "links", "_uid": "2", "links": [
              {"component": "link", "_uid": "3", "link": {"id": "uuid-about", "url": "", "anchor": "team", "linktype": "story", "fieldtype": "multilink", "cached_url": "old-about", "target": "_blank"}},
              {"component": "link", "_uid": "4", "link": {"id": "", "url": "https://kestrel.example/", "linktype": "url", "fieldtype": "multilink", "cached_url": "https://kestrel.example/"}},
              {"component": "link", "_uid": "5", "link": {"id": "", "url": "/about", "linktype": "url", "fieldtype": "multilink", "cached_url": "/about"}},
              {"component": "link", "_uid": "6", "link": {"id": "", "url": "", "email": "ric@example.com", "linktype": "email", "fieldtype": "multilink", "cached_url": ""}},
              {"component": "link", "_uid": "7", "link": {"id": "", "url": "/assets/files/sheet.pdf", "linktype": "asset", "fieldtype": "multilink", "cached_url": ""}},
              {"component": "link", "_uid": "8", "link": {"id": "", "url": "", "linktype": "story", "fieldtype": "multilink", "cached_url": ""}},
              {"component": "link", "_uid": "9", "link": {"id": "", "url": "javascript:alert(1)", "linktype": "url", "fieldtype": "multilink", "cached_url": ""}},
              {"component": "link", "_uid": "10", "link": {"id": "uuid-gone", "url": "", "anchor": "x", "linktype": "story", "fieldtype": "multilink", "cached_url": "gone/page"}}
            ]}]}
            """#
        let templates = [
            "components/links": "{{#links}}{{>*component}}{{/links}}",
            "components/link": "{{#link}}[{{href}}|{{target}}|{{linktype}}|{{title}}|{{exists}}]{{/link}}\n",
        ]
        let page = try renderPost(content, templates: templates)
        #expect(page.html == """
            <main>[../../about/#team|_blank|story|About us|true]
            [https://kestrel.example/||url||true]
            [../../about/||url||true]
            [mailto:ric@example.com||email||true]
            [../../assets/files/sheet.pdf||asset||true]
            [||story||true]
            [||url||true]
            [../../gone/page#x||story||false]
            </main>
            """)
        #expect(page.warnings.map(\.kind) == [.unsafeURL, .brokenLink])
        #expect(page.warnings.map(\.fieldPath) == ["body[0].links[6].link", "body[0].links[7].link"])
        #expect(page.warnings.allSatisfy { $0.story == "blog/post" })
    }

    @Test("assets get src relative to the page; tables are ready for sections")
    func assetsAndTables() throws {
        let content = #"""
            {"component": "post", "_uid": "1",
             "body": [{"component": "media", "_uid": "2",
               "image": {"id": 1, "alt": "Team", "name": "", "focus": "1x1:2x2", "title": null, "filename": "/assets/images/team.svg", "fieldtype": "asset"},
               "remote": {"id": 2, "alt": null, "filename": "https://a.storyblok.com/f/1/x.jpg", "fieldtype": "asset"},
               "empty": {"id": null, "alt": null, "filename": "", "fieldtype": "asset"},
               "gallery": [{"id": 3, "filename": "/assets/a.png"}, {"id": 4, "filename": "/assets/b.png"}],
               "table": {"thead": [{"_uid": "h1", "value": "Plan", "component": "_table_head"}, {"_uid": "h2", "value": "Price", "component": "_table_head"}],
                         "tbody": [{"_uid": "r1", "component": "_table_row", "body": [{"_uid": "c1", "value": "Pro", "component": "_table_col"}, {"_uid": "c2", "value": "<9>", "component": "_table_col"}]}],
                         "fieldtype": "table"},
               "no_table": {"fieldtype": "table"}}]}
            """#
        let templates = [
            "components/media": """
                {{image.src}}|{{image.alt}}|{{image.focus}}|{{remote.src}}|{{empty.src}}|{{#gallery}}{{src}},{{/gallery}}
                {{#table}}<table><tr>{{#thead}}<th>{{value}}</th>{{/thead}}</tr>{{#tbody}}<tr>{{#body}}<td>{{value}}</td>{{/body}}</tr>{{/tbody}}</table>{{/table}}
                {{#no_table}}[{{#thead}}x{{/thead}}{{#tbody}}y{{/tbody}}]{{/no_table}}
                """,
        ]
        let page = try renderPost(content, templates: templates)
        #expect(page.html == """
            <main>../../assets/images/team.svg|Team|1x1:2x2|https://a.storyblok.com/f/1/x.jpg||../../assets/a.png,../../assets/b.png,
            <table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>&lt;9&gt;</td></tr></table>
            []</main>
            """)
        #expect(page.missingComponents.isEmpty)
    }

    @Test("relations resolve two levels deep with content, then as name, href and full_slug only")
    func relationsTwoLevels() throws {
        let uuid = { (n: Int) in "b0000000-0000-4000-8000-00000000000\(n)" }
        let stories = [
            parseStory(#"{"uuid": "\#(uuid(1))", "full_slug": "blog/one", "name": "One", "content": {"component": "post", "_uid": "1", "author": "\#(uuid(2))"}}"#),
            parseStory(#"{"uuid": "\#(uuid(2))", "full_slug": "team/ann", "name": "Ann", "content": {"component": "person", "_uid": "2", "role": "Editor", "mentor": "\#(uuid(3))"}}"#),
            parseStory(#"{"uuid": "\#(uuid(3))", "full_slug": "team/bo", "name": "Bo", "content": {"component": "person", "_uid": "3", "role": "Lead", "mentor": "\#(uuid(2))"}}"#),
        ]
        let template = "{{#related}}{{name}}:{{#content.author}}{{name}} {{content.role}}{{#content.mentor}} mentor {{name}} {{href}} [{{content.role}}]{{/content.mentor}}{{/content.author}}{{/related}}"
        let renderer = PageRenderer(library: try TemplateLibrary(templates: ["pages/post": template]), resolver: TestResolver(stories: stories))
        let page = try renderer.render(parseStory(#"{"uuid": "p", "full_slug": "blog/post", "name": "Post", "content": {"component": "post", "_uid": "p", "related": ["\#(uuid(1))"]}}"#))
        // The card's author (two levels down) has content; the author's mentor (three) only a name and link,
        // and its null `content` keeps `{{content.role}}` from finding the author's.
        #expect(page.html == "One:Ann Editor mentor Bo ../../team/bo/ []")
    }

    @Test("option fields holding story UUIDs become story summaries; broken ones are empty lists, reported")
    func relations() throws {
        let author = "a0000000-0000-4000-8000-000000000001"
        let first = "a0000000-0000-4000-8000-000000000002"
        let second = "a0000000-0000-4000-8000-000000000003"
        let missing = "a0000000-0000-4000-8000-0000000000ff"
        let stories = [
            makeStory(uuid: author, slug: "team/ann", name: "Ann"),
            parseStory(#"{"uuid": "\#(first)", "full_slug": "home", "name": "Home", "content": {"component": "page", "_uid": "h", "excerpt": "Welcome", "related": ["\#(second)"]}}"#),
            makeStory(uuid: second, slug: "blog/other", name: "Other"),
        ]
        let template = """
            {{#author}}<a href="{{href}}">{{name}}</a> {{full_slug}}{{/author}}|{{unknown}}|\
            {{#related}}[{{name}} {{href}} {{content.excerpt}}{{#content.related}}!{{/content.related}}]{{/related}}|{{#plain}}{{.}}{{/plain}}|{{_uid}}
            """
        let renderer = PageRenderer(library: try TemplateLibrary(templates: ["pages/post": template]), resolver: TestResolver(stories: stories))
        let post = parseStory(#"""
            {"uuid": "uuid-post", "full_slug": "blog/post", "name": "A post", "content": {"component": "post", "_uid": "\#(author)",
             "author": "\#(author)", "unknown": "\#(missing)", "related": ["\#(first)", "\#(second)"], "plain": ["a", "b"]}}
            """#)
        let page = try renderer.render(post)
        #expect(page.html == """
            <a href="../../team/ann/">Ann</a> team/ann||\
            [Home ../../ Welcome!][Other ../other/ ]|ab|\(author)
            """)
        // A UUID no story has is an empty list, never the raw UUID, and is reported.
        #expect(page.warnings.map(\.fieldPath) == ["unknown"])

        let broken = parseStory(#"{"uuid": "uuid-post", "full_slug": "blog/post", "name": "A post", "content": {"component": "post", "_uid": "1", "related": ["\#(first)", "\#(missing)"]}}"#)
        let brokenPage = try renderer.render(broken)
        #expect(brokenPage.html.contains("[Home ../../ Welcome!]|"))
        #expect(brokenPage.warnings.map(\.fieldPath) == ["related[1]"])
        #expect(brokenPage.warnings.map(\.kind) == [.brokenLink])
    }

    @Test("richtext fields render as safe HTML; their blok nodes render with component templates that see the page")
    func richtextField() throws {
        let content = #"""
            {"component": "post", "_uid": "1", "body": {"type": "doc", "content": [
              {"type": "paragraph", "content": [{"type": "text", "text": "See "}, {"type": "text", "text": "about", "marks": [{"type": "link", "attrs": {"href": "/about", "uuid": "uuid-about", "anchor": null, "target": null, "linktype": "story"}}]}]},
              {"type": "blok", "attrs": {"id": "x", "body": [
                {"component": "cta", "_uid": "2", "label": "Go", "link": {"id": "uuid-home", "url": "", "linktype": "story", "fieldtype": "multilink", "cached_url": "home"}},
                {"component": "unknown_widget", "_uid": "3"}]}},
              {"type": "paragraph", "content": [{"type": "text", "text": "<end>", "marks": [{"type": "link", "attrs": {"href": "javascript:alert(1)", "linktype": "url"}}]}]}]}}
            """#
        let templates = [
            "pages/post": "{{body}}",
            "components/cta": #"<a class="cta" href="{{link.href}}"><img src="{{page.root}}x.svg">{{label}}</a>"#,
        ]
        let page = try renderPost(content, templates: templates)
        #expect(page.html == #"<p>See <a href="../../about/">about</a></p><a class="cta" href="../../"><img src="../../x.svg">Go</a><p><a>&lt;end&gt;</a></p>"#)
        #expect(page.missingComponents == ["unknown_widget"])
        #expect(page.warnings.map(\.fieldPath) == ["body.content[2].content[0].marks[0]"])
    }

    @Test("the markdown helper converts the section with cmark and resolves site links from the page")
    func markdown() throws {
        let content = #"""
            {"component": "post", "_uid": "1", "text": "See [about](/about#team), [the blog](./), [home](/), [gone](/gone), [ext](https://example.com) and ![logo](/assets/logo.svg).\n\n<script>alert(1)</script>\n\n[bad](javascript:alert(1))"}
            """#
        let templates = ["pages/post": "{{#markdown}}{{{text}}}{{/markdown}}"]
        let page = try renderPost(content, templates: templates)
        #expect(page.html == """
            <p>See <a href="../../about/#team">about</a>, <a href="../">the blog</a>, <a href="../../">home</a>, \
            <a href="../../gone">gone</a>, <a href="https://example.com">ext</a> and <img src="../../assets/logo.svg" alt="logo" />.</p>
            <!-- raw HTML omitted -->
            <p><a href="">bad</a></p>

            """)
        #expect(page.warnings.map(\.kind) == [.brokenLink, .unsafeURL])
        #expect(page.warnings.first?.fieldPath == "{{#markdown}}{{{text}}}{{/markdown}}")

        let unsafe = try renderPost(content, templates: templates, markdownUnsafe: true)
        #expect(unsafe.html.contains("<script>alert(1)</script>"))
        #expect(unsafe.html.contains(#"<a href="">bad</a>"#))
    }

    @Test("the markdown helper works inside component templates")
    func markdownInComponent() throws {
        let content = #"{"component": "post", "_uid": "1", "body": [{"component": "md", "_uid": "2", "text": "*hi* [about](/about)"}]}"#
        let page = try renderPost(content, templates: ["components/md": "{{#markdown}}{{{text}}}{{/markdown}}"])
        #expect(page.html == "<main><p><em>hi</em> <a href=\"../../about/\">about</a></p>\n</main>")
    }

    @Test("content holding Mustache tags is text, never a template")
    func contentIsNotTemplate() throws {
        let content = #"{"component": "post", "_uid": "1", "text": "{{#oops}} {{site.title}}", "title": "{{> layout}}"}"#
        let page = try renderPost(content, templates: ["pages/post": "{{#markdown}}{{{text}}}{{/markdown}}{{title}}"])
        #expect(page.html == "<p>{{#oops}} {{site.title}}</p>\n{{&gt; layout}}")
    }

    @Test("the 404 page links from the site's root path, which comes from the base URL")
    func notFoundPage() throws {
        let global = parseStory(#"""
            {"uuid": "uuid-global", "full_slug": "global", "name": "Global",
             "content": {"component": "global", "_uid": "g", "nav": {"id": "uuid-post", "url": "", "linktype": "story", "fieldtype": "multilink", "cached_url": "blog/post"},
                         "logo": {"filename": "/assets/logo.svg", "fieldtype": "asset"}}}
            """#)
        let templates = ["404": "{{page.root}}|{{global.nav.href}}|{{global.logo.src}}|{{site.title}}|{{page.url}}"]
        let renderer = PageRenderer(
            library: try TemplateLibrary(templates: templates), resolver: testResolver,
            site: json(#"{"title": "Kestrel"}"#), global: global, baseURL: "https://site.example/docs")
        #expect(try renderer.render404()?.html == "/docs/|/docs/blog/post/|/docs/assets/logo.svg|Kestrel|404.html")
        let atRoot = PageRenderer(library: try TemplateLibrary(templates: templates), resolver: testResolver, global: global)
        #expect(try atRoot.render404()?.html == "/|/blog/post/|/assets/logo.svg||404.html")
        #expect(try PageRenderer(library: try library(), resolver: testResolver).render404() == nil)
    }
}
