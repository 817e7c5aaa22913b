// Measures rendering a page-like template compiled once: a layout extended with inheritance, a page,
// and 50 body blocks dispatched to component partials by dynamic name over a Storyblok-like context.
// Run with `swift run -c release mustache-benchmark`.
//
// `swift run -c release mustache-benchmark --compile` measures instead how compile time grows with
// template size and nesting (see CompileScaling.swift).
import Foundation
import Mustache

if CommandLine.arguments.dropFirst().first == "--compile" {
    CompileScaling.run()
    exit(0)
}

let templates: [String: String] = [
    "layout": """
        <!DOCTYPE html>
        <html lang="{{site.language}}">
        <head>
          <meta charset="utf-8">
          <title>{{$title}}{{site.name}}{{/title}}</title>
          <meta name="description" content="{{$description}}{{site.description}}{{/description}}">
          <link rel="canonical" href="{{page.url}}">
          <link rel="stylesheet" href="{{site.assets}}/site.css">
        </head>
        <body class="{{$bodyClass}}page{{/bodyClass}}">
          <header class="site-header">
            <a class="logo" href="{{site.home}}">{{site.name}}</a>
            <nav aria-label="Main">
              <ul>
                {{#navigation}}
                <li{{#active}} class="active"{{/active}}><a href="{{href}}">{{label}}</a></li>
                {{/navigation}}
              </ul>
            </nav>
          </header>
          <main id="content">
            {{$main}}{{/main}}
          </main>
          <footer class="site-footer">
            <p>&copy; {{site.year}} {{site.name}}</p>
            <ul>{{#footer}}<li><a href="{{href}}">{{label}}</a></li>{{/footer}}</ul>
          </footer>
        </body>
        </html>

        """,
    "pages/default": """
        {{<layout}}
        {{$title}}{{story.name}} · {{site.name}}{{/title}}
        {{$description}}{{story.content.summary}}{{/description}}
        {{$bodyClass}}page page-{{story.slug}}{{/bodyClass}}
        {{$main}}
        <article>
          <h1>{{story.content.title}}</h1>
          {{#story.content.body}}
          {{>*component}}
          {{/story.content.body}}
        </article>
        {{/main}}
        {{/layout}}

        """,
    "components/headline": """
        <h2 id="{{_uid}}" class="headline headline-{{level}}">{{text}}</h2>

        """,
    "components/teaser": """
        <section class="teaser{{#highlight}} teaser-highlight{{/highlight}}">
          {{#image}}
          <img src="{{filename}}" alt="{{alt}}" width="{{width}}" height="{{height}}" loading="lazy">
          {{/image}}
          <h3>{{headline}}</h3>
          <p>{{intro}}</p>
          {{#link}}<a class="more" href="{{href}}">{{label}}</a>{{/link}}
        </section>

        """,
    "components/richtext": """
        <div class="richtext">
          {{html}}
        </div>

        """,
    "components/grid": """
        <div class="grid">
          {{#columns}}
          <div class="column">
            {{>*component}}
          </div>
          {{/columns}}
        </div>

        """,
    "components/quote": """
        <blockquote>
          <p>{{text}}</p>
          {{#author}}<footer>— {{author}}{{#role}}, {{role}}{{/role}}</footer>{{/author}}
        </blockquote>

        """,
    "components/button": """
        <a class="button button-{{style}}" href="{{href}}"{{#external}} rel="noopener"{{/external}}>{{label}}</a>

        """,
    "components/feature-list": """
        <ul class="features">
          {{#items}}
          <li><strong>{{title}}</strong> {{description}}</li>
          {{/items}}
          {{^items}}<li>No features yet.</li>{{/items}}
        </ul>

        """,
]

func teaser(_ index: Int) -> MustacheValue {
    [
        "_uid": .string("teaser-\(index)"), "component": "teaser", "highlight": .bool(index % 5 == 0),
        "headline": .string("Teaser \(index): Tom & Jerry's \"best\" bits"),
        "intro": "A short introduction that runs for a sentence or two, as teasers on landing pages usually do.",
        "image": [
            "filename": .string("https://a.storyblok.com/f/12345/1200x800/abc\(index)/photo.jpg"),
            "alt": "A photo of the team at work", "width": 1200, "height": 800,
        ],
        "link": ["href": .string("/articles/story-\(index)/"), "label": "Read more"],
    ]
}

func block(_ index: Int) -> MustacheValue {
    switch index % 7 {
    case 0:
        return ["_uid": .string("h\(index)"), "component": "headline", "level": 2, "text": .string("Section \(index)")]
    case 1:
        return teaser(index)
    case 2:
        return [
            "_uid": .string("r\(index)"), "component": "richtext",
            "html": .html("""
                <p>Rendered <em>richtext</em> with a <a href="/about/">link</a> and more words to make a \
                paragraph of realistic length.</p>
                <p>Second paragraph.</p>
                """),
        ]
    case 3:
        return [
            "_uid": .string("g\(index)"), "component": "grid",
            "columns": .array([teaser(index * 10), teaser(index * 10 + 1), teaser(index * 10 + 2)]),
        ]
    case 4:
        return [
            "_uid": .string("q\(index)"), "component": "quote", "text": "Simplicity is prerequisite for reliability.",
            "author": "Edsger W. Dijkstra", "role": "computer scientist",
        ]
    case 5:
        return [
            "_uid": .string("b\(index)"), "component": "button", "style": "primary",
            "href": "https://example.com/signup?ref=page&campaign=spring", "label": "Sign up", "external": true,
        ]
    default:
        return [
            "_uid": .string("f\(index)"), "component": "feature-list",
            "items": .array((0..<4).map { item in
                ["title": .string("Feature \(item)"), "description": "Does one thing well, quickly."]
            }),
        ]
    }
}

let context: MustacheValue = [
    "site": [
        "name": "Acme Stories", "description": "Stories from Acme", "language": "en", "year": 2026,
        "home": "/", "assets": "/assets",
    ],
    "page": ["url": "https://acme.example/about/"],
    "navigation": .array(["Home", "About", "Articles", "Team", "Contact"].enumerated().map { index, label in
        ["label": .string(label), "href": .string("/\(label.lowercased())/"), "active": .bool(index == 1)]
    }),
    "footer": [["label": "Imprint", "href": "/imprint/"], ["label": "Privacy", "href": "/privacy/"]],
    "story": [
        "name": "About us", "slug": "about",
        "content": [
            "title": "About Acme", "summary": "Who we are & what we do",
            "body": .array((0..<50).map(block)),
        ],
    ],
]

let clock = ContinuousClock()
var library: TemplateLibrary?
let compileTime = clock.measure { library = try? TemplateLibrary(templates: templates) }
guard let library else {
    do { _ = try TemplateLibrary(templates: templates) } catch { print(error) }
    fatalError("benchmark templates do not compile")
}

let page = try library.render("pages/default", context: context)
precondition(page.missingPartials.isEmpty, "missing partials: \(page.missingPartials)")

let warmUpRenders = 1_000
let renders = 10_000
var outputBytes = 0
for _ in 0..<warmUpRenders {
    outputBytes &+= try library.render("pages/default", context: context).text.utf8.count
}
let renderTime = try clock.measure {
    for _ in 0..<renders {
        outputBytes &+= try library.render("pages/default", context: context).text.utf8.count
    }
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

func oneDecimal(_ value: Double) -> String {
    String((value * 10).rounded() / 10)
}

let perRender = microseconds(renderTime) / Double(renders)
print("mustache render: \(oneDecimal(perRender)) µs per page (layout + page + 50 components, \(renders) renders)")
let compileMilliseconds = oneDecimal(microseconds(compileTime) / 1000)
print("  page: \(page.text.utf8.count) bytes; compile: \(compileMilliseconds) ms for \(library.names.count) templates")
print("  (checksum \(outputBytes % 997), so the renders cannot be optimised away)")
