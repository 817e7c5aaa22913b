import Mustache
import Testing

/// ``URLPolicy/filtered``: values written at the start of a URL attribute are checked with the URL
/// safety rule; everything else renders as the spec says.
@Suite("URLs in HTML attributes")
struct URLAttributeTests {
    private func render(_ template: String, _ context: MustacheValue, urls: URLPolicy = .filtered) throws -> RenderedTemplate {
        let library = try TemplateLibrary(templates: ["page": template])
        return try library.render("page", contexts: [context], options: RenderOptions(urls: urls))
    }

    private func text(_ template: String, _ context: MustacheValue) throws -> String {
        try render(template, context).text
    }

    static let script: MustacheValue = ["url": "javascript:alert(1)"]

    @Test("a script URL at the start of href, src, action, formaction or poster is replaced, quoted or not")
    func replaced() throws {
        for template in [
            "<a href=\"{{url}}\">x</a>", "<a href='{{url}}'>x</a>", "<a href={{url}}>x</a>", "<a HREF = \"{{{url}}}\">x</a>",
            "<a class=\"button\" href=\"{{&url}}\" target=\"_blank\">x</a>", "<iframe src=\"{{url}}\"></iframe>",
            "<form action=\"{{url}}\"><button formaction=\"{{url}}\">x</button></form>", "<video poster=\"{{url}}\"></video>",
            "<a data-href=\"{{url}}\">x</a>", "<use xlink:href=\"{{url}}\"/>", "<a href=\"  {{url}}\">x</a>",
        ] {
            let page = try text(template, Self.script)
            #expect(!page.contains("javascript"), "\(template) → \(page)")
            #expect(page.contains(URLSafety.replacement), "\(template) → \(page)")
        }
    }

    @Test("the spec's rendering is the default: the same values are written as they are")
    func specByDefault() throws {
        let library = try TemplateLibrary(templates: ["page": "<a href=\"{{url}}\">x</a>"])
        #expect(try library.render("page", context: Self.script).text == "<a href=\"javascript:alert(1)\">x</a>")
        #expect(try render("<a href=\"{{url}}\">x</a>", Self.script, urls: .asWritten).text == "<a href=\"javascript:alert(1)\">x</a>")
    }

    @Test("safe URLs, and values outside URL attributes, are written unchanged")
    func unchanged() throws {
        let context: MustacheValue = ["url": "https://example.com/?a=1&b=2", "text": "javascript:alert(1)", "path": "../about/"]
        #expect(try text("<a href=\"{{url}}\" title=\"{{text}}\">{{text}}</a>", context)
            == "<a href=\"https://example.com/?a=1&amp;b=2\" title=\"javascript:alert(1)\">javascript:alert(1)</a>")
        #expect(try text("<a href=\"{{path}}\">", context) == "<a href=\"../about/\">")
        // After literal text the scheme is the template's: `/docs/javascript:x` is a path.
        #expect(try text("<a href=\"/docs/{{text}}\">", context) == "<a href=\"/docs/javascript:alert(1)\">")
        #expect(try text("<!-- <a href=\"{{text}}\"> --><script>var a = '<a href=\"{{text}}\">'</script>", context)
            == "<!-- <a href=\"javascript:alert(1)\"> --><script>var a = '<a href=\"javascript:alert(1)\">'</script>")
        #expect(try text("<p>a < b</p><a href=\"{{text}}\">", context) == "<p>a < b</p><a href=\"\(URLSafety.replacement)\">")
    }

    @Test("images may be raster data URLs, links may not; every URL rule's spelling is refused")
    func rules() throws {
        let context: MustacheValue = ["png": "data:image/png;base64,AAAA", "html": "data:text/html,<script>alert(1)</script>", "obfuscated": "java&#x09;script:x"]
        #expect(try text("<img src=\"{{png}}\" srcset=\"{{png}} 1x\">", context) == "<img src=\"data:image/png;base64,AAAA\" srcset=\"data:image/png;base64,AAAA 1x\">")
        #expect(try text("<a href=\"{{png}}\" download>", context) == "<a href=\"\(URLSafety.replacement)\" download>")
        #expect(try text("<a href=\"{{html}}\">", context) == "<a href=\"\(URLSafety.replacement)\">")
        #expect(try text("<img srcset=\"/a.png 1x, {{html}} 2x\">", context) == "<img srcset=\"/a.png 1x, \(URLSafety.replacement) 2x\">")
        #expect(try text("<a href=\"{{{obfuscated}}}\">", context) == "<a href=\"\(URLSafety.replacement)\">")
    }

    @Test("two values that are safe alone but make a script URL together are refused")
    func concatenation() throws {
        let context: MustacheValue = ["scheme": "java", "rest": "script:alert(1)", "site": "https://example.com", "path": "/a:b"]
        #expect(try text("<a href=\"{{scheme}}{{rest}}\">", context) == "<a href=\"java\(URLSafety.replacement)\">")
        #expect(try text("<a href=\"{{site}}{{path}}\">", context) == "<a href=\"https://example.com/a:b\">")
        // Sections between the values change nothing: either branch is checked where it lands.
        let branches = "<a href=\"{{#link}}{{link}}{{/link}}{{^link}}{{site}}{{/link}}\">"
        #expect(try text(branches, ["link": "javascript:x", "site": "/"]) == "<a href=\"\(URLSafety.replacement)\">")
        #expect(try text(branches, ["link": "", "site": "/"]) == "<a href=\"/\">")
    }

    @Test("HTML values and lambda results are checked too")
    func htmlAndLambdas() throws {
        let lambda = MustacheLambda { _ in .string("javascript:{{x}}") }
        let context: MustacheValue = ["html": .html("javascript&colon;alert(1)"), "lambda": .lambda(lambda), "x": "1"]
        #expect(try text("<a href=\"{{html}}\"><a href=\"{{lambda}}\">", context)
            == "<a href=\"\(URLSafety.replacement)\"><a href=\"\(URLSafety.replacement)\">")
    }

    @Test("every refused URL is listed once, with the template position that wrote it")
    func reported() throws {
        let rendered = try render("<p>\n  <a href=\"{{url}}\">{{#items}}<img src=\"{{url}}\">{{/items}}", ["url": "javascript:x", "items": [1, 2]])
        #expect(rendered.refusedURLs == [
            RefusedURL(url: "javascript:x", path: "page", line: 2, column: 12),
            RefusedURL(url: "javascript:x", path: "page", line: 2, column: 41),
        ])
        #expect(rendered.refusedURLs[0].description == "page:2:12: URL 'javascript:x' refused: it could run script")
    }

    @Test("with DynamicPartialScope.components, {{>*name}} reaches only templates under components/")
    func componentsOnly() throws {
        let library = try TemplateLibrary(templates: [
            "layout": "LAYOUT{{#body}}{{>*component}}{{/body}}", "components/hero": "hero", "pages/page": "PAGE",
        ])
        let context: MustacheValue = ["body": [["component": "hero"], ["component": "layout"], ["component": "pages/page"], ["component": "../x"]]]
        let scoped = try library.render("layout", contexts: [context], options: RenderOptions(dynamicPartials: .components))
        #expect(scoped.text == "LAYOUThero")
        #expect(scoped.missingPartials == ["layout", "pages/page", "../x"])
        let spec = try library.render("layout", contexts: [["body": [["component": "pages/page"]]]], options: RenderOptions())
        #expect(spec.text == "LAYOUTPAGE")
    }
}
