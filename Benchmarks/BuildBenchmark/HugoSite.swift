import Foundation
import SyntheticSpace

/// The synthetic space as a Hugo site with the same words, headings and links: each page's
/// paragraphs become its Markdown body, the hero, teasers, Markdown block and backlinks come
/// from front matter, and the templates mirror the storysite theme of ``Theme``.
///
/// With `listing`, the posts section lists every post, newest first, 10 to a page, with an RSS
/// feed of 20 entries: Hugo's own pagination and feed, as storysite's listing does.
///
/// Backlinks are computed here and handed to Hugo as data: Hugo has no link graph, and finding
/// them in its templates would cost it far more than storysite pays. The comparison is kinder to
/// Hugo for it.
enum HugoSite {
    /// Writes the site into `folder` (`config.toml`, `content/`, `layouts/`, `static/`).
    static func write(stories count: Int, to folder: URL, listing: Bool) throws {
        let pages = (0..<count).map { SyntheticSpace.page($0, of: count) }
        var backlinks = [[Int]](repeating: [], count: count)
        for page in pages {
            for target in Set(targets(of: page)) where target != page.index { backlinks[target].append(page.index) }
        }
        let content = folder.appendingPathComponent("content/posts", isDirectory: true)
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        for page in pages {
            let path = page.index == 0 ? "content/_index.md" : "content/posts/post-\(page.index).md"
            let text = markdownPage(page, backlinks: backlinks[page.index].sorted().map { pages[$0] })
            try Data(text.utf8).write(to: folder.appendingPathComponent(path))
        }
        var files = files
        if listing {
            files["content/posts/_index.md"] = "{\"title\": \"Posts\"}\n"
            files["config.toml"] = listingConfiguration
            files["layouts/_default/list.html"] = listTemplate
        }
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// The indexes of every page `page` links to.
    private static func targets(of page: SyntheticSpace.Page) -> [Int] {
        page.paragraphs.flatMap { $0.compactMap(\.link) } + page.teasers.map(\.link)
            + page.markdown.split(separator: "](/").dropFirst().compactMap { part in
                let slug = part.prefix { $0 != ")" }
                return slug == "home" ? 0 : Int(slug.split(separator: "-").last ?? "")
            }
    }

    private static func url(_ index: Int) -> String {
        index == 0 ? "/" : "/posts/post-\(index)/"
    }

    /// One page: JSON front matter, then the paragraphs as Markdown.
    private static func markdownPage(_ page: SyntheticSpace.Page, backlinks: [SyntheticSpace.Page]) -> String {
        let front: [String: Any] = [
            "title": page.title,
            "date": SyntheticSpace.firstPublishedAt(page.index),
            "subtitle": page.subtitle,
            "image": page.imageURL,
            "markdown": page.markdown.replacingOccurrences(of: "](/home)", with: "](/)"),
            "teasers": page.teasers.map { ["title": $0.title, "text": $0.text, "link": url($0.link)] },
            "backlinks": backlinks.map { ["name": $0.title, "href": url($0.index)] },
        ]
        let json = (try? JSONSerialization.data(withJSONObject: front, options: [.sortedKeys])) ?? Data()
        let body = page.paragraphs.map { runs in
            runs.map { run in run.link.map { "[\(run.text)](\(url($0)))" } ?? run.text }.joined()
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
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>{{ block "title" . }}{{ .Site.Title }}{{ end }}</title>
            <link rel="canonical" href="{{ .Permalink }}">
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
