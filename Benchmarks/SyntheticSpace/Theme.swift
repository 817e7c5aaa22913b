extension SyntheticSpace {
    /// A small theme for the synthetic space's components, by template name (`components/hero`),
    /// shared by the render and build benchmarks. In a site with languages each page names its
    /// language and links its versions in the others (`hreflang` alternates); without, it is
    /// `en` and links none.
    public static let theme: [String: String] = [
        "layout": """
            <!doctype html>
            <html lang="{{page.lang}}{{^page.lang}}en{{/page.lang}}">
            <head>
            <meta charset="utf-8">
            <title>{{$title}}{{site.title}}{{/title}}</title>
            {{#page.canonical}}<link rel="canonical" href="{{page.canonical}}">{{/page.canonical}}
            {{#page.translations}}<link rel="alternate" hreflang="{{lang}}" href="{{url}}">{{/page.translations}}
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
        "pages/page": """
            {{<layout}}{{$title}}{{story.name}} · {{site.title}}{{/title}}{{$main}}
            {{#body}}{{>*component}}{{/body}}
            {{/main}}{{/layout}}
            """,
        "pages/listing": """
            {{<layout}}{{$title}}{{story.name}} · {{site.title}}{{/title}}{{$main}}
            <h1>{{title}}</h1>
            <ul class="posts">{{#page.children}}<li><a href="{{href}}">{{name}}</a> <time>{{first_published_at}}</time></li>{{/page.children}}</ul>
            {{#page.pagination}}<nav class="pagination">{{#prev}}<a href="{{prev}}">Newer</a>{{/prev}} \
            {{#pages}}<a href="{{href}}">{{number}}</a> {{/pages}}{{#next}}<a href="{{next}}">Older</a>{{/next}}</nav>{{/page.pagination}}
            {{/main}}{{/layout}}
            """,
        "components/hero": """
            <section class="hero"><h1>{{title}}</h1><p class="lede">{{subtitle}}</p>\
            {{#image.src}}<img src="{{image.src}}" alt="{{image.alt}}">{{/image.src}}</section>
            """,
        "components/article": "<article class=\"prose\">{{text}}</article>\n",
        "components/grid": "<div class=\"grid\">{{#columns}}{{>*component}}{{/columns}}</div>\n",
        "components/teaser": """
            <div class="card"><h3>{{#link.href}}<a href="{{link.href}}">{{title}}</a>{{/link.href}}</h3><p>{{text}}</p></div>
            """,
        "components/markdown": "<div class=\"markdown\">{{#markdown}}{{{text}}}{{/markdown}}</div>\n",
    ]
}
