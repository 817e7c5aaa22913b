import Foundation
import StoryCrawl
import StoryModel
import StoryRender

/// What a build made of the site, kept so that one page can be rendered again with an unsaved
/// edit of its story (the Visual Editor's `input` event): each language's page plan, link graph
/// and renderer. Rendering from it is pure: nothing is fetched, read or written.
public struct SiteModel: Sendable {
    struct Edition: Sendable {
        var plan: PagePlan
        var graph: LinkGraph
        var renderer: PageRenderer
    }

    let editions: [Edition]
    let translations: PageTranslations
    /// Whether missing component templates are errors (`--strict`).
    let strict: Bool
    /// The templates folder, as messages name it.
    let templates: String

    /// Renders the page at `path` (as the browser has it: `/blog/post/`, `/blog/post/index.html`,
    /// `/` for home; percent-decoded) with `json` in place of the story the build read: a story
    /// object as the Storyblok Bridge sends it, or `{"story": …}`. The story must be the page's own
    /// or the global story. Returns the page's HTML.
    public func renderPage(at path: String, postedStory json: [UInt8]) throws(PostedStoryError) -> String {
        let posted = try Self.story(from: json)
        let url = Self.pageURL(of: path)
        guard let (edition, page) = page(at: url) else {
            throw PostedStoryError(
                reason: .noPage, location: path,
                message: "no page is at this path in the last build; save the story so that a build places it")
        }
        let translated = edition.plan.language?.reading(posted) ?? posted
        var shown = page, renderer = edition.renderer
        if let own = page.kind.story, own.uuid == posted.uuid {
            shown.kind = page.kind.showing(translated)
        } else if edition.plan.globalStory?.uuid == posted.uuid {
            renderer = renderer.showingGlobal(translated)
        } else {
            throw PostedStoryError(
                reason: .otherStory, location: path,
                message: "the page shows \(page.kind.story.map { "story '\($0.fullSlug)'" } ?? "no story"), "
                    + "not '\(posted.fullSlug)' (nor the global story)")
        }
        var listing = edition.plan.listing(of: page)
        listing.translations = translations.of(page, in: edition.plan.language)
        let rendered: RenderedPage
        do {
            rendered = try SiteGenerator.render(shown, listing: listing, graph: edition.graph, plan: edition.plan, renderer: renderer)
        } catch {
            throw PostedStoryError(
                reason: .renderFailed, location: (error as? PageRenderError)?.story ?? posted.fullSlug,
                message: (error as? PageRenderError)?.message ?? "\(error)")
        }
        if strict, let component = rendered.missingComponents.first {
            throw PostedStoryError(
                reason: .renderFailed, location: "\(templates)/components/\(component).mustache",
                message: "no template for component '\(component)', used by \(posted.fullSlug); add the template (--strict makes this an error)")
        }
        return rendered.html
    }

    /// The planned page at the site-relative `url`, and its language's edition.
    private func page(at url: String) -> (Edition, PlannedPage)? {
        for edition in editions {
            if let page = edition.plan.pages.first(where: { $0.location.url == url }) { return (edition, page) }
        }
        return nil
    }

    /// `/blog/post/index.html` → `blog/post/`; `/` → `` (home).
    static func pageURL(of path: String) -> String {
        var url = Substring(path.drop { $0 == "/" })
        if url.hasSuffix("index.html") { url = url.dropLast("index.html".count) }
        if !url.isEmpty, !url.hasSuffix("/") { url += "/" }
        return String(url)
    }

    /// The posted story, decoded as a content file's story is.
    private static func story(from json: [UInt8]) throws(PostedStoryError) -> Story {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw PostedStoryError(reason: .invalidStory, location: "posted story:\(error.line):\(error.column)", message: error.message)
        }
        guard case .object(var object) = value else {
            throw PostedStoryError(reason: .invalidStory, location: "posted story", message: "must be a story object")
        }
        if object.count == 1, case .object(let inner)? = object["story"] { object = inner }
        do {
            return try Story(json: object)
        } catch {
            throw PostedStoryError(reason: .invalidStory, location: "posted story", message: "\(error)")
        }
    }
}

/// Why a posted story could not be shown: where (the path, the posted JSON's line and column,
/// a template) and what.
public struct PostedStoryError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// No page is at the path.
        case noPage
        /// The page shows another story.
        case otherStory
        /// The JSON is not a story.
        case invalidStory
        /// The page failed to render with it.
        case renderFailed
    }

    public var reason: Reason
    public var location: String
    public var message: String

    public var description: String { "\(location): \(message)" }
}

/// The model of the last good build, for the Visual Editor's renders while `serve` runs: the
/// build stores it, each render reads it.
public final class SiteModelStore: @unchecked Sendable {
    private let lock = NSLock()
    private var model: SiteModel?

    public init() {}

    /// The last good build's model; nil before the first.
    public var current: SiteModel? {
        lock.withLock { model }
    }

    func store(_ newModel: SiteModel) {
        lock.withLock { model = newModel }
    }
}

extension PlannedPage.Kind {
    /// The same page showing `story` in place of its own.
    func showing(_ story: Story) -> PlannedPage.Kind {
        switch self {
        case .story: .story(story)
        case .listingPage(_, let number): .listingPage(story, number: number)
        case .tag, .tagIndex: self
        }
    }
}
