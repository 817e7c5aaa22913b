import Foundation

/// The storysite theme for the synthetic space's components (the same as render-benchmark's),
/// written into the benchmark's `Templates/`.
enum Theme {
    static let styleSheet = "body { font: 16px/1.5 sans-serif; max-width: 40rem; margin: auto; }\n"

    /// Writes the templates and the style sheet into `folder`.
    static func write(to folder: URL) throws {
        for (name, text) in templates {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    static let templates = [
        "assets/style.css": styleSheet,
        "layout.mustache": """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>{{$title}}{{site.title}}{{/title}}</title>
            {{#page.canonical}}<link rel="canonical" href="{{page.canonical}}">{{/page.canonical}}
            <link rel="stylesheet" href="{{page.root}}assets/style.css">
            </head>
            <body>
            <nav class="breadcrumbs">{{#page.breadcrumbs}}<a href="{{href}}">{{name}}</a> / {{/page.breadcrumbs}}{{story.name}}</nav>
            <main>
            {{$main}}{{/main}}
            </main>
            <aside><h2>Linked from</h2><ul>{{#page.backlinks}}<li><a href="{{href}}">{{name}}</a></li>{{/page.backlinks}}</ul></aside>
            <footer>{{site.title}}</footer>
            </body>
            </html>
            """,
        "pages/page.mustache": """
            {{<layout}}{{$title}}{{story.name}} · {{site.title}}{{/title}}{{$main}}
            {{#body}}{{>*component}}{{/body}}
            {{/main}}{{/layout}}
            """,
        "components/hero.mustache": """
            <section class="hero"><h1>{{title}}</h1><p class="lede">{{subtitle}}</p>\
            {{#image.src}}<img src="{{image.src}}" alt="{{image.alt}}">{{/image.src}}</section>
            """,
        "components/article.mustache": "<article class=\"prose\">{{text}}</article>\n",
        "components/grid.mustache": "<div class=\"grid\">{{#columns}}{{>*component}}{{/columns}}</div>\n",
        "components/teaser.mustache": """
            <div class="card"><h3>{{#link.href}}<a href="{{link.href}}">{{title}}</a>{{/link.href}}</h3><p>{{text}}</p></div>
            """,
        "components/markdown.mustache": "<div class=\"markdown\">{{#markdown}}{{{text}}}{{/markdown}}</div>\n",
    ]
}
