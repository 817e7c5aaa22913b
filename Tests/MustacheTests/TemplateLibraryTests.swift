import Foundation
import Mustache
import Testing
import TestSupport

@Suite("Template library")
struct TemplateLibraryTests {
    @Test("a folder's templates are named by relative path without .mustache, sorted")
    func folderNames() throws {
        let folder = try TemporaryFolder()
        try folder.write("layout.mustache", "{{$main}}{{/main}}")
        try folder.write("pages/default.mustache", "page")
        try folder.write("components/teaser.mustache", "teaser")
        try folder.write("components/cards/card.mustache", "card")
        try folder.write("components/README.md", "not a template")
        try folder.write(".drafts/old.mustache", "hidden folder")
        try folder.write("components/.wip.mustache", "hidden file")

        let library = try TemplateLibrary(folder: folder.url)
        #expect(library.names == ["components/cards/card", "components/teaser", "layout", "pages/default"])
        #expect(library.contains("components/teaser"))
        #expect(!library.contains("teaser"))
        #expect(try library.render("components/cards/card", context: [:]).text == "card")
    }

    @Test("a partial name that is not a template is looked up under components/")
    func componentsFallback() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{>teaser}}|{{>card}}|{{<frame}}{{$inner}}!{{/inner}}{{/frame}}",
            "components/teaser": "component teaser",
            "components/card": "component card",
            "card": "top-level card",
            "components/frame": "[{{$inner}}{{/inner}}]",
        ])
        #expect(try library.render("page", context: [:]).text == "component teaser|top-level card|[!]")
    }

    @Test("dynamic partial names dispatch each block to its component template")
    func dynamicDispatch() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{#body}}{{>*component}}{{/body}}",
            "components/headline": "<h1>{{text}}</h1>",
            "components/teaser": "<p>{{title}}</p>",
        ])
        let context: MustacheValue = ["body": [
            ["component": "headline", "text": "Hello"],
            ["component": "teaser", "title": "World"],
        ]]
        #expect(try library.render("page", context: context).text == "<h1>Hello</h1><p>World</p>")
    }

    @Test("a dynamic name finds components/ first, so a block named like a top-level template renders its component")
    func dynamicNamesPreferComponents() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{#body}}[{{>*component}}]{{/body}}|{{>layout}}",
            "layout": "page layout",
            "components/layout": "layout block {{columns}}",
            "footer": "top-level footer",
        ])
        let context: MustacheValue = ["body": [["component": "layout", "columns": 2], ["component": "footer"]]]
        #expect(try library.render("page", context: context).text == "[layout block 2][top-level footer]|page layout")
    }

    @Test("missing partials and parents render empty and are reported once each, in first-seen order")
    func missingPartialsReported() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{>header}}{{#body}}[{{>*component}}]{{/body}}{{>header}}{{<frame}}{{/frame}}",
            "components/teaser": "teaser",
        ])
        let context: MustacheValue = ["body": [
            ["component": "video"], ["component": "teaser"], ["component": "video"], ["no component": true],
        ]]
        let reported = try library.render("page", context: context)
        #expect(reported.text == "[][teaser][][]")
        #expect(reported.missingPartials == ["header", "video", "frame"])

        let spec = try library.render("page", context: context, missingPartials: .renderEmpty)
        #expect(spec.text == "[][teaser][][]")
        #expect(spec.missingPartials.isEmpty)

        // Named tags that name no template are known before rendering, each where it stands;
        // dynamic names are only known when a render meets them.
        #expect(library.missingPartialTags.map { "\($0.path):\($0.line):\($0.column) \($0.name)" }
            == ["page:1:1 header", "page:1:47 header", "page:1:58 frame"])
        #expect(library.missingPartialTags[2].message == "no template is named 'frame' (nor 'components/frame'), so this parent renders as nothing")
    }

    @Test("one compiled partial renders with the indentation of each standalone tag, and none inline")
    func partialIndentation() throws {
        let library = try TemplateLibrary(templates: [
            "page": "<div>\n  {{>list}}\n    {{>list}}\ninline: {{>list}}</div>\n",
            "list": "<ul>\n  {{#items}}\n  {{>item}}\n  {{/items}}\n</ul>\n",
            "item": "<li>{{{text}}}</li>\n",
        ])
        let context: MustacheValue = ["items": [["text": "a"], ["text": "b\nc"]]]
        #expect(try library.render("page", context: context).text == """
            <div>
              <ul>
                <li>a</li>
                <li>b
            c</li>
              </ul>
                <ul>
                  <li>a</li>
                  <li>b
            c</li>
                </ul>
            inline: <ul>
              <li>a</li>
              <li>b
            c</li>
            </ul>
            </div>

            """)
    }

    @Test("a page extends the layout, overriding some blocks and keeping the others' defaults")
    func layoutInheritance() throws {
        let library = try TemplateLibrary(templates: [
            "layout": """
                <html>
                <head><title>{{$title}}Storysite{{/title}}</title></head>
                <body>
                  {{$main}}
                  <p>No content</p>
                  {{/main}}
                  {{$footer}}
                  <footer>{{site}}</footer>
                  {{/footer}}
                </body>
                </html>

                """,
            "pages/default": """
                {{<layout}}
                {{$title}}{{name}} · {{site}}{{/title}}
                {{$main}}
                <article>
                  <h1>{{name}}</h1>
                </article>
                {{/main}}
                {{/layout}}

                """,
        ])
        let output = try library.render("pages/default", context: ["name": "About", "site": "Acme"]).text
        #expect(output == """
            <html>
            <head><title>About · Acme</title></head>
            <body>
              <article>
                <h1>About</h1>
              </article>
              <footer>Acme</footer>
            </body>
            </html>

            """)
    }

    @Test("a parent can be chosen by dynamic name, with the components/ fallback")
    func dynamicParent() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{<*frame}}{{$title}}Hello{{/title}}{{/*frame}}",
            "components/card": "<div class=\"card\"><h2>{{$title}}Untitled{{/title}}</h2></div>",
        ])
        #expect(try library.render("page", context: ["frame": "card"]).text == "<div class=\"card\"><h2>Hello</h2></div>")
        let missing = try library.render("page", context: ["frame": "panel"])
        #expect(missing.text == "")
        #expect(missing.missingPartials == ["panel"])
    }

    @Test("one library renders from 64 concurrent tasks with identical output")
    func concurrentRendering() async throws {
        let library = try TemplateLibrary(templates: [
            "layout": "<main>\n  {{$main}}{{/main}}\n</main>\n",
            "page": "{{<layout}}{{$main}}{{#body}}\n{{>*component}}\n{{/body}}{{/main}}{{/layout}}",
            "components/teaser": "<p>{{title}} &amp; {{n}}</p>",
            "components/list": "<ul>{{#items}}<li>{{.}}</li>{{/items}}</ul>",
        ])
        let body: [MustacheValue] = (0..<40).map { index in
            index.isMultiple(of: 2)
                ? ["component": "teaser", "title": .string("Teaser <\(index)>"), "n": .number(Double(index))]
                : ["component": "list", "items": ["a", "b", .number(Double(index))]]
        }
        let context: MustacheValue = ["body": .array(body)]
        let expected = try library.render("page", context: context).text

        let outputs = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<64 {
                group.addTask { try library.render("page", context: context).text }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(outputs.count == 64)
        #expect(outputs.allSatisfy { $0 == expected })
        #expect(expected.contains("<p>Teaser &lt;38&gt; &amp; 38</p>"))
    }
}
