import Foundation
import StoryModel
import StoryRender
import StorySource

/// Every setting that changes what a build does, with the defaults of a bare `storysite build`.
/// Folder paths are relative to the working folder the build is given.
public struct SiteSettings: Sendable {
    /// The folder of stories.
    public var source: String
    /// The folder of Mustache templates.
    public var templates: String
    /// The folder of root files (`CNAME`, `_redirects`, `.well-known/`…) copied to the output as
    /// they are; it may be missing.
    public var staticFolder = "static"
    /// The folder the site is written into.
    public var output: String
    /// The stories to start crawling from; the first is the site's root.
    public var entries: [String]
    /// The site's public URL, ending in `/`: for the sitemap, robots.txt and canonical links.
    public var baseURL: String?
    /// What every template sees as `site`.
    public var site: JSONObject
    /// Whether Markdown may hold raw HTML.
    public var markdownUnsafe: Bool
    /// The slug of the story whose content every page sees as `global` and that gets no page.
    public var global: String
    /// Whether `global` was set (`"global"` in `storysite.json`) rather than left at `global`: a
    /// story it names must exist, while the default one may be missing.
    public var globalIsExplicit = false
    /// Whether warnings (missing templates, broken links) are errors.
    public var strict: Bool
    /// How many files to read, pages to render and files to write at once.
    public var jobs: Int
    /// The Content Delivery API to read from, when an access token is given; else the folder.
    public var api: StoryblokConfiguration?
    /// A pulled folder to build from when the API cannot be reached.
    public var fallback: String?
    /// How start pages list their folders, by folder (`blog/`); `tags/` for tag pages.
    public var listings: [String: ListingSettings]
    /// The named collections every page sees, in name order.
    public var collections: [CollectionSettings]
    /// The languages to build, default first; empty for a site of one language.
    public var languages: [String]
    /// How the space holds its languages.
    public var translation: TranslationStrategy
    /// The date sections templates see (`{{#date}}…{{/date}}`) and the time zone they write in.
    public var dates: DateFormats
    /// The widths and format of assets' `srcset`, and whether richtext images get them (`"images"`).
    public var images: ImageSettings
    /// Whether richtext headings get ids and pages see `page.toc` (`"richtext"`).
    public var richtext: RichtextSettings
    /// Whether blocks carry the Visual Editor's markers as `editable` (draft content, in `serve`
    /// or with `--editable`).
    public var editable = false

    /// The file settings are read from, as messages name it.
    public static let configurationFile = "storysite.json"

    /// Settings with these values; each one left out has the default of a bare `storysite build`.
    public init(
        source: String = "Content", templates: String = "Templates", output: String = "Output", entries: [String] = ["home"],
        baseURL: String? = nil, site: JSONObject = JSONObject(), markdownUnsafe: Bool = false, global: String = "global",
        strict: Bool = false, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, api: StoryblokConfiguration? = nil,
        fallback: String? = nil, listings: [String: ListingSettings] = [:], collections: [CollectionSettings] = [],
        languages: [String] = [], translation: TranslationStrategy = .field, dates: DateFormats = DateFormats(),
        images: ImageSettings = ImageSettings(), richtext: RichtextSettings = RichtextSettings()
    ) {
        self.source = source
        self.templates = templates
        self.output = output
        self.entries = entries
        self.baseURL = baseURL
        self.site = site
        self.markdownUnsafe = markdownUnsafe
        self.global = global
        self.strict = strict
        self.jobs = jobs
        self.api = api
        self.fallback = fallback
        self.listings = listings
        self.collections = collections
        self.languages = languages
        self.translation = translation
        self.dates = dates
        self.images = images
        self.richtext = richtext
    }
}

extension URL {
    /// `path` resolved against this working folder, as the command line resolves every path.
    func resolving(_ path: String) -> URL {
        URL(fileURLWithPath: path, isDirectory: true, relativeTo: self).standardizedFileURL
    }
}
