import Mustache
import StoryModel

/// Renders stories to HTML pages through the site's templates. Pure: no I/O, and every href
/// comes from the injected ``LinkResolving``. Safe to use from many tasks at once.
///
/// A story renders with `pages/<root component>` (falling back to `pages/default`), which
/// extends `layout` by inheritance. The template sees `story`, `page`, `site`, `global`, the
/// `markdown` helper, the date formats (``DateFormats``), and the root block's fields at the
/// top level; blocks render with
/// `components/<component>` (see ``BlockPreparation`` for what a block sees).
public struct PageRenderer: Sendable {
    /// The compiled templates.
    public let library: TemplateLibrary
    /// Where stories live.
    public let resolver: any LinkResolving
    /// The site's base URL (`https://example.com/docs/`), when set; used for `page.canonical`,
    /// absolute links into the site, and the 404 page's root.
    public let baseURL: String?
    private let site: MustacheValue
    /// The global story, and the tape its root block is read from (made once, for a global
    /// story made from a tree, not for every page).
    private var global: (story: Story, tape: JSONTape, root: Int)?
    /// The named collections every page sees as `collections.<name>`, in name order.
    private let collections: [(name: String, stories: [Story])]
    /// The language of the pages (`page.lang`), when the site has languages.
    private let language: String?
    private let markdown: MarkdownRenderer
    /// The date sections every template sees (`{{#date}}…{{/date}}`), in name order.
    private let dateFormats: [(name: String, format: DateFormats.Format)]
    private let dates: DateFormats
    /// Assets' `srcset` widths and format, and whether richtext images get them.
    private let images: ImageSettings
    /// Whether richtext headings get ids and story pages see `page.toc`.
    private let richtext: RichtextSettings
    /// Whether blocks carry the Visual Editor's markers (see ``VisualEditorMarkers``).
    private let editable: Bool
    /// Names of partials that no template has wherever they are written (`{{>header}}`): reported
    /// once by whoever loads the templates, so not as missing components on every page.
    private let missingPartialNames: Set<String>

    /// Creates a renderer. `site` is the `site` object of `storysite.json`; `global` the story
    /// whose root block every page sees as `global` (navigation, footer); `collections` the
    /// stories of each named collection, in order; `markdownUnsafe` keeps raw HTML in Markdown
    /// (`markdown.unsafe: true`); `dates` the date formats of `storysite.json`; `images` its
    /// responsive images; `richtext` its richtext settings (heading ids, `page.toc`); `editable`
    /// gives every block the Visual Editor's markers as `editable`.
    public init(
        library: TemplateLibrary, resolver: some LinkResolving, site: JSONValue = .object(JSONObject()),
        global: Story? = nil, collections: [(name: String, stories: [Story])] = [], language: String? = nil,
        baseURL: String? = nil, markdownUnsafe: Bool = false, dates: DateFormats = DateFormats(),
        images: ImageSettings = ImageSettings(), richtext: RichtextSettings = RichtextSettings(), editable: Bool = false
    ) {
        self.library = library
        self.resolver = resolver
        self.baseURL = baseURL.flatMap { $0.isEmpty ? nil : $0 }
        self.site = PageContext.site(site, baseURL: self.baseURL)
        self.global = global.flatMap(Self.withRoot)
        self.collections = collections
        self.language = language
        self.markdown = MarkdownRenderer(unsafe: markdownUnsafe)
        self.dateFormats = dates.formats.keys.sorted().map { ($0, dates.formats[$0]!) }
        self.dates = dates
        self.images = images
        self.richtext = richtext
        self.editable = editable
        self.missingPartialNames = Set(library.missingPartialTags.map(\.name))
    }

    /// `story` with the tape of its root block, when it has one.
    private static func withRoot(_ story: Story) -> (story: Story, tape: JSONTape, root: Int)? {
        story.withContent { tape, reader, root in reader.kind(at: root) == .object ? (story, tape, root) : nil }
    }

    /// This renderer with `story` as the global story: for pages shown with an unsaved edit of it.
    public func showingGlobal(_ story: Story) -> PageRenderer {
        var renderer = self
        renderer.global = Self.withRoot(story)
        return renderer
    }

    /// Renders `story`'s page. `backlinks` are the pages of the stories that link to it
    /// (`page.backlinks`); `listing` what it lists; `url` the page's site-relative URL when it
    /// is not the story's own (a further page of a paginated listing, `blog/page/2/`).
    /// Throws ``PageRenderError`` when the story has no page, no page template fits, or a
    /// template fails.
    public func render(_ story: Story, backlinks: [LinkedPage] = [], listing: PageListing = PageListing(), url: String? = nil) throws -> RenderedPage {
        guard let pageURL = url ?? resolver.pageURL(of: story) else {
            throw PageRenderError(story: story.fullSlug, message: "the story has no page URL, so it cannot be rendered as a page")
        }
        let links = PageLinks(resolver: resolver, pageURL: pageURL, fullSlug: story.fullSlug, baseURL: baseURL)
        let log = RenderLog()
        let page = PageContext.page(
            url: pageURL, root: RelativeURL.root(of: pageURL), baseURL: baseURL,
            breadcrumbs: PageContext.breadcrumbs(of: story, resolver: resolver), backlinks: backlinks, links: links)
        var surroundings = topLevel(
            page: page, listing: listing, links: links, story: story.fullSlug, locale: dateLocale(of: story), log: log)
        // With heading ids, the page's own richtext headings, in document order, for `page.toc`.
        let headings = richtext.headingIds ? HeadingOutline() : nil
        var preparation = preparation(links: links, story: story.fullSlug, log: log, surroundings: surroundings)
        preparation.headings = headings
        // The component and the block from one read of the content, which a story whose content
        // waits in a store reads back each time (at 100,000 stories, the first read of each page's
        // tape was 1.8% of a build's processor time).
        let (rootComponent, content) = preparation.componentAndBlock(of: story)
        let component = rootComponent ?? "default"
        let templateName = library.contains("pages/" + component) ? "pages/" + component : "pages/default"
        guard library.contains(templateName) else {
            throw PageRenderError(
                story: story.fullSlug,
                message: "no page template: add Templates/pages/\(component).mustache or Templates/pages/default.mustache")
        }
        // Set once the content is prepared, so the page template sees every heading. (Components
        // inside richtext render while it is prepared, so they do not see `page.toc`.)
        if let headings, case .object(var pageObject)? = surroundings["page"] {
            pageObject["toc"] = headings.toc
            surroundings["page"] = .object(pageObject)
        }
        // The root block's fields at the top level, beneath the names the contract reserves.
        let contexts: [MustacheValue] = [
            .object(content), .object(surroundings), ["story": PageContext.story(story, content: content, links: links, language: language)],
        ]
        return try finish(templateName, contexts: contexts, story: story.fullSlug, log: log)
    }

    /// Renders a tag's page with `pages/tag`: it sees `tag` (`name`, `slug`, `count`) and, in
    /// `page.children` and `page.pagination`, the stories with the tag.
    public func render(tag: TagPage) throws -> RenderedPage {
        let location = "tags/" + tag.slug
        let links = PageLinks(resolver: resolver, pageURL: tag.url, baseURL: baseURL)
        let log = RenderLog()
        let page = generatedPage(url: tag.url, links: links)
        let surroundings = topLevel(page: page, listing: tag.listing, links: links, story: location, locale: dateLocale(of: nil), log: log)
        let fields: MustacheValue = ["name": .string(tag.name), "slug": .string(tag.slug), "count": .number(Double(tag.count))]
        return try finish("pages/tag", contexts: [.object(surroundings), ["tag": fields]], story: location, log: log)
    }

    /// Renders the page of every tag with `pages/tags`: it sees `tags`, each with `name`,
    /// `slug`, `href` and `count`; `listing` gives its translations.
    public func render(tagIndex tags: [TagSummary], url: String, listing: PageListing = PageListing()) throws -> RenderedPage {
        let links = PageLinks(resolver: resolver, pageURL: url, baseURL: baseURL)
        let log = RenderLog()
        let surroundings = topLevel(
            page: generatedPage(url: url, links: links), listing: listing, links: links, story: "tags", locale: dateLocale(of: nil), log: log)
        let list: MustacheValue = .array(tags.map { tag in
            ["name": .string(tag.name), "slug": .string(tag.slug), "href": .string(links.href(toSiteURL: tag.url)), "count": .number(Double(tag.count))]
        })
        return try finish("pages/tags", contexts: [.object(surroundings), ["tags": list]], story: "tags", log: log)
    }

    /// The HTML of `story`'s root block field `field` for a feed entry's summary, with absolute
    /// links: richtext rendered, a string read as Markdown; nil without a base URL or value.
    public func summaryHTML(of story: Story, field: String) -> String? {
        guard let baseURL else { return nil }
        let links = PageLinks(resolver: resolver, absoluteRoot: baseURL, baseURL: baseURL)
        let log = RenderLog()
        let prepared = preparation(links: links, story: story.fullSlug, log: log, surroundings: MustacheObject()).field(field, of: story)
        switch prepared {
        case .html(let html)?:
            return html
        case .string(let text)? where !text.isEmpty:
            return MarkdownSection.html(of: text, renderer: markdown, links: links, story: story.fullSlug, fieldPath: field, log: log)
        default:
            return nil
        }
    }

    /// Renders `404.mustache`, or returns nil when the site has none. The 404 page is served at
    /// any path, so its links are absolute from the site's root path: `page.root` is `/`, or the
    /// base URL's path (`/docs/`).
    public func render404() throws -> RenderedPage? {
        guard library.contains("404") else { return nil }
        let root = Self.rootPath(of: baseURL)
        let links = PageLinks(resolver: resolver, absoluteRoot: root, baseURL: baseURL)
        let log = RenderLog()
        var page: MustacheObject = [
            "url": .string("404.html"), "root": .string(root), "breadcrumbs": .array([]), "backlinks": .array([]),
        ]
        if let baseURL { page["canonical"] = .string(PercentEncoding.absoluteURL("404.html", under: baseURL)) }
        let context = topLevel(page: page, listing: PageListing(), links: links, story: "404", locale: dateLocale(of: nil), log: log)
        return try finish("404", contexts: [.object(context)], story: "404", log: log)
    }

    // MARK: Steps

    /// The `page` of a page that shows no story (a tag page): its breadcrumbs start at home.
    private func generatedPage(url: String, links: PageLinks) -> MustacheObject {
        let home = resolver.page(for: .slug(resolver.rootSlug)).map { [$0] } ?? []
        return PageContext.page(
            url: url, root: RelativeURL.root(of: url), baseURL: baseURL, breadcrumbs: home, backlinks: [], links: links)
    }

    /// `page` (with what `listing` adds), `site`, `global`, `collections`, `markdown` and the date
    /// sections, which write dates in `locale`: what every template of the page sees.
    private func topLevel(
        page: MustacheObject, listing: PageListing, links: PageLinks, story: String, locale: String, log: RenderLog
    ) -> MustacheObject {
        var context = MustacheObject(minimumCapacity: 5 + dateFormats.count)
        // First, so that a name of the contract would win over a format (configuration refuses those).
        for (name, format) in dateFormats {
            context.append(new: name, DateSection.lambda(name: name, format: format, locale: locale, timeZone: dates.timeZone, story: story, log: log))
        }
        context["page"] = .object(page)
        context["site"] = site
        context["markdown"] = MarkdownSection.lambda(renderer: markdown, links: links, story: story, log: log)
        if let global {
            // Reported under the global story, so the CLI can merge the repeats across pages.
            let fields = preparation(links: links, story: global.story.fullSlug, log: log, surroundings: context)
                .block(in: global.tape, at: global.root)
            context["global"] = .object(fields)
        }
        let lists = preparation(links: links, story: story, log: log, surroundings: context)
        if !collections.isEmpty {
            var named = MustacheObject(minimumCapacity: collections.count)
            for collection in collections { named.append(new: collection.name, .array(collection.stories.map(lists.summary(of:)))) }
            context["collections"] = .object(named)
        }
        var page = page
        if let children = listing.children { page["children"] = .array(children.map(lists.summary(of:))) }
        if let pagination = listing.pagination { page["pagination"] = PageContext.pagination(pagination, links: links) }
        if let feedURL = listing.feedURL { page["feed"] = .string(links.href(toSiteURL: feedURL)) }
        if let language { page["lang"] = .string(language) }
        if let home = resolver.story(for: .slug(resolver.rootSlug)), let href = links.href(to: home) { page["home"] = .string(href) }
        if !listing.translations.isEmpty { page["translations"] = PageContext.translations(listing.translations, links: links, baseURL: baseURL) }
        context["page"] = .object(page)
        return context
    }

    /// The locale of a page's dates: the page's language, else `story`'s `lang` when it is a
    /// language code, else English.
    private func dateLocale(of story: Story?) -> String {
        DateSection.locale(language: language, storyLang: story?.string("lang"))
    }

    /// Block preparation for one page; blocks inside richtext render with their component
    /// template, seeing `surroundings` (`page`, `site`, `markdown`) around their own fields.
    private func preparation(
        links: PageLinks, story: String, log: RenderLog, surroundings: MustacheObject
    ) -> BlockPreparation {
        BlockPreparation(links: links, story: story, log: log, relationLevels: 2, images: images, editable: editable) { [library] block, component in
            let name = "components/" + component
            guard library.contains(name) else {
                log.addMissing([component])
                return ""
            }
            do {
                let rendered = try library.render(name, contexts: [.object(surroundings), .object(block)], options: .htmlPages)
                log.addMissing(missingComponents(rendered))
                log.add(refusedURLWarnings(rendered, story: story))
                return rendered.text
            } catch {
                log.fail(error)
                return ""
            }
        }
    }

    private func finish(_ templateName: String, contexts: [MustacheValue], story: String, log: RenderLog) throws -> RenderedPage {
        let rendered: RenderedTemplate
        do {
            try log.throwIfFailed()
            rendered = try library.render(templateName, contexts: contexts, options: .htmlPages)
        } catch {
            throw PageRenderError(story: story, message: "\(error)")
        }
        log.addMissing(missingComponents(rendered))
        log.add(refusedURLWarnings(rendered, story: story))
        return RenderedPage(html: rendered.text, missingComponents: log.uniqueMissingComponents, warnings: log.uniqueWarnings)
    }

    /// Warnings for the URLs a render refused where a template wrote them into a URL attribute
    /// (a `{"href": "javascript:…"}` that is neither a multilink nor an asset), at the template's
    /// position.
    private func refusedURLWarnings(_ rendered: RenderedTemplate, story: String) -> [RenderWarning] {
        rendered.refusedURLs.map { refused in
            RenderWarning(
                kind: .unsafeURL, story: story, fieldPath: refused.location,
                message: "URL '\(refused.url)' refused: it could run script; written as \(URLSafety.replacement)")
        }
    }

    /// The components a render found no template for: the dynamic partials (`{{>*component}}`) it
    /// met, named without `components/` (`components/hero` and `hero` both name `hero`). Blocks
    /// render only with templates under `components/` (``RenderOptions/htmlPages``), so a block
    /// whose component is `layout` or `pages/page` is a missing component, never that page.
    private func missingComponents(_ rendered: RenderedTemplate) -> [String] {
        rendered.missingPartials.filter { !missingPartialNames.contains($0) }.map { partial in
            partial.hasPrefix("components/") ? String(partial.dropFirst("components/".count)) : partial
        }
    }

    /// The path of `baseURL` (`https://example.com/docs` → `/docs/`), or `/`.
    public static func rootPath(of baseURL: String?) -> String {
        guard let baseURL, let schemeEnd = baseURL.range(of: "://") else { return "/" }
        let afterHost = baseURL[schemeEnd.upperBound...].drop { $0 != "/" }
        var path = String(afterHost.prefix { $0 != "?" && $0 != "#" })
        if path.isEmpty { path = "/" }
        return path.hasSuffix("/") ? path : path + "/"
    }
}

/// A rendered page.
public struct RenderedPage: Sendable, Hashable {
    /// The page's HTML.
    public var html: String
    /// Components that blocks on the page use but that have no template, sorted.
    public var missingComponents: [String]
    /// Problems that did not stop the page (broken links, refused URLs), each naming a story
    /// and a field path.
    public var warnings: [RenderWarning]
}

/// Why a page could not be rendered.
public struct PageRenderError: Error, Sendable, CustomStringConvertible {
    /// The `full_slug` of the story (or `404`).
    public var story: String
    /// What went wrong and what to do.
    public var message: String

    public var description: String { "\(story): \(message)" }
}
