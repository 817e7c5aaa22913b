import Foundation
import SyntheticSpace

/// The synthetic space as a Hugo site with the same words, headings and links: each page's
/// paragraphs become its Markdown body, the hero, teasers, Markdown block and backlinks come
/// from front matter, and the templates mirror the storysite theme of ``Theme``. With the heavy
/// theme, the front matter holds the page's blocks instead (`body`, see HeavyTheme.swift) and
/// `config.toml` the navigation menu.
///
/// With `listing`, the posts section lists every post, newest first, 10 to a page, with an RSS
/// feed of 20 entries: Hugo's own pagination and feed, as storysite's listing does.
///
/// Backlinks are computed here and handed to Hugo as data: Hugo has no link graph, and finding
/// them in its templates would cost it far more than storysite pays. The comparison is kinder to
/// Hugo for it.
///
/// With several `languages` (the default first), Hugo's multilingual mode builds every page in
/// each: `[languages.<code>]` in `config.toml`, and each translation beside its page, named by
/// its language (`content/posts/post-1.de.md`, which makes it a translation of `post-1.md`),
/// its path set by `slug` (`/de/posts/de-post-1/`, as storysite's `translated_slugs` path puts
/// it), its text, links and backlinks those of ``SyntheticSpace/translation(of:to:languages:)``.
/// The templates name the page's language and link its translations, as the storysite theme does.
enum HugoSite {
    /// Writes the site into `folder` (`config.toml`, `content/`, `layouts/`, `static/`).
    static func write(stories count: Int, to folder: URL, listing: Bool, languages: [String] = [], theme: Theme) throws {
        let pages = (0..<count).map { SyntheticSpace.page($0, of: count) }
        var backlinks = [[Int]](repeating: [], count: count)
        for page in pages {
            for target in Set(targets(of: page)) where target != page.index { backlinks[target].append(page.index) }
        }
        for index in backlinks.indices { backlinks[index].sort() }
        let content = folder.appendingPathComponent("content/posts", isDirectory: true)
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        let editions = languages.count > 1 ? languages.map(Optional.some) : [nil]
        for language in editions {
            let site = Edition(language: language, languages: languages)
            let translated = language == languages.first ? pages : pages.map { site.translation(of: $0) }
            let suffix = site.isDefault ? "" : "." + language!
            for page in translated {
                let path = page.index == 0 ? "content/_index\(suffix).md" : "content/posts/post-\(page.index)\(suffix).md"
                let text = markdownPage(page, backlinks: backlinks[page.index].map { translated[$0] }, site: site, theme: theme)
                try Data(text.utf8).write(to: folder.appendingPathComponent(path))
            }
        }
        var files = files
        if listing {
            for language in editions {
                let suffix = language == nil || language == languages.first ? "" : "." + language!
                files["content/posts/_index\(suffix).md"] = "{\"title\": \"Posts\"}\n"
            }
            files["config.toml"] = listingConfiguration
            files["layouts/_default/list.html"] = listTemplate
        }
        if theme == .heavy {
            files = heavyLayouts(over: files)
            files["config.toml"]! += menuConfiguration(stories: count)
        }
        if languages.count > 1 {
            // Top-level keys come before the first table.
            let configuration = files["config.toml"]!
            let firstTable = configuration.range(of: "\n[")?.lowerBound ?? configuration.endIndex
            files["config.toml"] = configuration[..<firstTable] + "\ndefaultContentLanguage = \"\(languages[0])\""
                + configuration[firstTable...] + languagesConfiguration(languages)
        }
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// One language's site; without languages, the only one.
    private struct Edition {
        var language: String?
        var languages: [String]

        var isDefault: Bool { language == nil || language == languages.first }

        /// The page in this language.
        func translation(of page: SyntheticSpace.Page) -> SyntheticSpace.Page {
            guard let language else { return page }
            return SyntheticSpace.translation(of: page, to: language, languages: languages)
        }

        /// The URL of page `index` in this language: `/posts/post-<n>/`, `/de/posts/de-post-<n>/`.
        func url(_ index: Int) -> String {
            guard !isDefault else { return index == 0 ? "/" : "/\(SyntheticSpace.fullSlug(index))/" }
            return "/\(language!)/" + (index == 0 ? "" : SyntheticSpace.path(index, in: language!, languages: languages) + "/")
        }

        /// `slug` in the front matter of page `index`, which puts it at its translated path.
        func slug(_ index: Int) -> String? {
            guard !isDefault, index > 0 else { return nil }
            return String(SyntheticSpace.path(index, in: language!, languages: languages).split(separator: "/").last!)
        }

        /// The page's Markdown text, its links to pages (`](/posts/post-12)`, `](/home)`) to
        /// their versions in this language, as storysite resolves them.
        func markdown(_ text: String) -> String {
            if isDefault { return text.replacingOccurrences(of: "](/home)", with: "](/)") }
            return text.replacingOccurrences(of: "](/home)", with: "](/\(language!)/)")
                .replacingOccurrences(of: "](/posts/post-", with: "](/\(language!)/posts/\(language!)-post-")
        }
    }

    /// `[languages.<code>]` for each language, in order (the first the default, at the root).
    private static func languagesConfiguration(_ languages: [String]) -> String {
        languages.enumerated().map { "\n[languages.\($1)]\nweight = \($0 + 1)\nlanguageName = \"\($1)\"" }.joined() + "\n"
    }

    /// The indexes of every page `page` links to.
    private static func targets(of page: SyntheticSpace.Page) -> [Int] {
        page.paragraphs.flatMap { $0.compactMap(\.link) } + page.teasers.map(\.link)
            + page.markdown.split(separator: "](/").dropFirst().compactMap { part in
                let slug = part.prefix { $0 != ")" }
                return slug == "home" ? 0 : Int(slug.split(separator: "-").last ?? "")
            }
    }

    /// One page: JSON front matter, then the paragraphs as Markdown. The front matter holds the
    /// hero's, teasers' and Markdown block's fields for the plain theme's templates, and the
    /// page's blocks with their fields (`body`, as in the story) for the heavy theme's.
    private static func markdownPage(_ page: SyntheticSpace.Page, backlinks: [SyntheticSpace.Page], site: Edition, theme: Theme) -> String {
        let teasers = page.teasers.map { ["title": $0.title, "text": $0.text, "link": site.url($0.link)] }
        var front: [String: Any] = [
            "title": page.title,
            "date": SyntheticSpace.firstPublishedAt(page.index),
            "backlinks": backlinks.map { ["name": $0.title, "href": site.url($0.index)] },
        ]
        switch theme {
        case .plain:
            front["subtitle"] = page.subtitle
            front["image"] = page.imageURL
            front["markdown"] = site.markdown(page.markdown)
            front["teasers"] = teasers
        case .heavy:
            front["body"] = [
                ["component": "hero", "title": page.title, "subtitle": page.subtitle, "image": page.imageURL],
                ["component": "article"],
                ["component": "grid", "columns": teasers.map { $0.merging(["component": "teaser"]) { $1 } }],
                ["component": "markdown", "text": site.markdown(page.markdown)],
            ]
        }
        if let slug = site.slug(page.index) { front["slug"] = slug }
        let json = (try? JSONSerialization.data(withJSONObject: front, options: [.sortedKeys])) ?? Data()
        let body = page.paragraphs.map { runs in
            runs.map { run in run.link.map { "[\(run.text)](\(site.url($0)))" } ?? run.text }.joined()
        }.joined(separator: "\n\n")
        return String(decoding: json, as: UTF8.self) + "\n\n" + body + "\n"
    }

    /// The configuration of a site whose posts section is paginated and has a feed.
    private static let listingConfiguration = """
        baseURL = "https://bench.example/"
        title = "Synthetic"
        paginate = 10
        rssLimit = 20
        disableKinds = ["taxonomy", "term"]
        [outputs]
        home = ["HTML"]
        section = ["HTML", "RSS"]
        """

    /// The posts section's pages: its posts, newest first, and links to the other pages.
    private static let listTemplate = """
        {{ define "main" }}<h1>{{ .Title }}</h1>
        <ul class="posts">{{ range .Paginator.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <time>{{ .Date }}</time></li>{{ end }}</ul>
        <nav class="pagination">{{ with .Paginator }}{{ if .HasPrev }}<a href="{{ .Prev.URL }}">Newer</a>{{ end }} \
        {{ range .Pagers }}<a href="{{ .URL }}">{{ .PageNumber }}</a> {{ end }}{{ if .HasNext }}<a href="{{ .Next.URL }}">Older</a>{{ end }}{{ end }}</nav>
        {{ end }}
        """

    /// Configuration and templates, equivalent to the storysite theme.
    private static let files = [
        "config.toml": """
            baseURL = "https://bench.example/"
            title = "Synthetic"
            disableKinds = ["taxonomy", "term", "RSS"]
            """,
        "static/assets/style.css": Theme.styleSheet,
        "layouts/_default/baseof.html": """
            <!doctype html>
            <html lang="{{ .Site.Language.Lang }}">
            <head>
            <meta charset="utf-8">
            <title>{{ block "title" . }}{{ .Site.Title }}{{ end }}</title>
            <link rel="canonical" href="{{ .Permalink }}">
            {{ if .IsTranslated }}{{ range .AllTranslations }}<link rel="alternate" hreflang="{{ .Language.Lang }}" href="{{ .Permalink }}">{{ end }}{{ end }}
            <link rel="stylesheet" href="/assets/style.css">
            </head>
            <body>
            <nav class="breadcrumbs">{{ if not .IsHome }}{{ with .Site.Home }}<a href="{{ .RelPermalink }}">{{ .Title }}</a> / {{ end }}{{ end }}{{ .Title }}</nav>
            <main>
            {{ block "main" . }}{{ end }}
            </main>
            <aside><h2>Linked from</h2><ul>{{ range .Params.backlinks }}<li><a href="{{ .href }}">{{ .name }}</a></li>{{ end }}</ul></aside>
            <footer>{{ .Site.Title }}</footer>
            </body>
            </html>
            """,
        "layouts/partials/page.html": """
            <section class="hero"><h1>{{ .Title }}</h1><p class="lede">{{ .Params.subtitle }}</p><img src="{{ .Params.image }}" alt="{{ .Title }}"></section>
            <article class="prose">{{ .Content }}</article>
            <div class="grid">{{ range .Params.teasers }}<div class="card"><h3><a href="{{ .link }}">{{ .title }}</a></h3><p>{{ .text }}</p></div>{{ end }}</div>
            <div class="markdown">{{ .Params.markdown | markdownify }}</div>
            """,
        "layouts/_default/single.html": """
            {{ define "title" }}{{ .Title }} · {{ .Site.Title }}{{ end }}
            {{ define "main" }}{{ partial "page.html" . }}{{ end }}
            """,
        "layouts/index.html": """
            {{ define "title" }}{{ .Title }} · {{ .Site.Title }}{{ end }}
            {{ define "main" }}{{ partial "page.html" . }}{{ end }}
            """,
        "layouts/_default/list.html": """
            {{ define "main" }}<h1>{{ .Title }}</h1>{{ end }}
            """,
    ]
}
