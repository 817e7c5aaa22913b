import SiteOutput
import StoryCrawl
import StoryRender

/// One language's crawl: its link graph.
public struct LanguageGraph: Sendable {
    /// The language; nil for a site without languages.
    public var language: SiteLanguage?
    public var graph: LinkGraph
}

/// The pages that translate each other: a story's page, or page N of its listing, in every
/// language it has one in (the same story, or with folder-level translation the same
/// `group_id`); a tag's page N in every language that has the tag; the page of every tag.
struct PageTranslations: Sendable {
    private struct Version: Sendable {
        var language: SiteLanguage
        var url: String
        var name: String
    }

    /// The versions of each page, by ``key(of:)``, in the order of the languages.
    private var versions: [String: [Version]] = [:]

    /// The translations among `plans`, one per language (none for a site without languages).
    init(plans: [PagePlan]) {
        versions.reserveCapacity(plans.first?.pages.count ?? 0)
        for plan in plans {
            guard let language = plan.language else { continue }
            for page in plan.pages {
                guard let key = Self.key(of: page) else { continue }
                versions[key, default: []].append(Version(language: language, url: page.location.url, name: Self.name(of: page, in: plan)))
            }
        }
    }

    /// What `page` in `language` sees as `page.translations`: every version, its own marked.
    func of(_ page: PlannedPage, in language: SiteLanguage?) -> [PageTranslation] {
        guard let language, let key = Self.key(of: page), let versions = versions[key] else { return [] }
        return versions.map { PageTranslation(lang: $0.language.code, name: $0.name, url: $0.url, current: $0.language == language) }
    }

    /// The sitemap's alternates of `page` in `language`: every version by its code, and the
    /// default language's as `x-default`.
    func sitemapAlternates(of page: PlannedPage, in language: SiteLanguage?) -> [Sitemap.Alternate] {
        guard language != nil, let key = Self.key(of: page), let versions = versions[key] else { return [] }
        let alternates = versions.map { Sitemap.Alternate(hreflang: $0.language.code, url: $0.url) }
        guard let fallback = versions.first(where: \.language.isDefault) else { return alternates }
        return alternates + [Sitemap.Alternate(hreflang: "x-default", url: fallback.url)]
    }

    /// What the versions of one page have in common: their story (or with folder-level
    /// translation, their `group_id`) or tag, and the page number.
    private static func key(of page: PlannedPage) -> String? {
        switch page.kind {
        case .story(let story): story.translationGroup ?? story.uuid
        case .listingPage(let story, let number): "\(story.translationGroup ?? story.uuid)/\(number)"
        case .tag(let slug, let number): "tags/\(slug)/\(number)"
        case .tagIndex: "tags/"
        }
    }

    /// How a version is named in `page.translations`: its story's name, or its tag's.
    private static func name(of page: PlannedPage, in plan: PagePlan) -> String {
        switch page.kind {
        case .story(let story), .listingPage(let story, _): story.name
        case .tag(let slug, _): plan.tags?.tag(slug: slug)?.name ?? slug
        case .tagIndex: "tags"
        }
    }
}
