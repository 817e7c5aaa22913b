import Mustache
import Testing

/// Large and deeply nested templates compile and render correctly. (How long they take is
/// measured by `swift run -c release mustache-benchmark --compile`, not here.)
@Suite("Template size and nesting")
struct TemplateSizeTests {
    @Test("a template nesting 10,000 sections renders every level")
    func deepSections() throws {
        let depth = 10_000
        let template = String(repeating: "{{#open}}(\n", count: depth) + "{{name}}\n" + String(repeating: "){{/open}}\n", count: depth)
        let library = try TemplateLibrary(templates: ["deep": template])
        let page = try library.render("deep", context: ["open": true, "name": "middle"]).text
        #expect(page == String(repeating: "(\n", count: depth) + "middle\n" + String(repeating: ")\n", count: depth))
    }

    @Test("a template nesting 5,000 inverted sections in 5,000 blocks renders every level")
    func deepInvertedSectionsAndBlocks() throws {
        let depth = 5_000
        let template = (0..<depth).map { "{{^closed}}{{$b\($0)}}<" }.joined() + "{{name}}"
            + (0..<depth).reversed().map { ">{{/b\($0)}}{{/closed}}" }.joined()
        let library = try TemplateLibrary(templates: ["deep": template])
        let page = try library.render("deep", context: ["closed": false, "name": "middle"]).text
        #expect(page == String(repeating: "<", count: depth) + "middle" + String(repeating: ">", count: depth))
    }

    @Test("a lambda inside 1,000 nested sections gets its section's raw text, and renders it")
    func lambdaInDeepSections() throws {
        let depth = 1_000
        let template = String(repeating: "{{#open}}", count: depth) + "{{#upper}}a{{name}}{{/upper}}" + String(repeating: "{{/open}}", count: depth)
        let library = try TemplateLibrary(templates: ["deep": template])
        let upper = MustacheLambda { invocation in
            #expect(invocation.text == "a{{name}}")
            return .html(try invocation.render(invocation.text ?? "").uppercased())
        }
        let context: MustacheValue = ["open": true, "name": "b", "upper": .lambda(upper)]
        #expect(try library.render("deep", context: context).text == "AB")
        #expect(try library.render("deep", context: context).text == "AB")
    }

    @Test("sections nesting deeper than the limit are an error at the first tag past it")
    func tooDeep() throws {
        let depth = TemplateLibrary.maximumTemplateNesting + 2
        let template = "<p>\n" + String(repeating: "{{#a}}", count: depth) + String(repeating: "{{/a}}", count: depth)
        let error = try #require(throws: TemplateErrors.self) { try TemplateLibrary(templates: ["deep": template]) }
        #expect(error.errors.map(\.description) == [
            "deep:2:60001: error: section 'a' nests deeper than 10000 levels of sections, parents and blocks; "
                + "split the template into partials"
        ])
    }

    @Test("100,000 lines of tags compile, and report positions on the last line")
    func manyLines() throws {
        let lines = 100_000
        let template = String(repeating: "<p>{{#item}}{{name}}{{/item}}</p>\n", count: lines) + "  {{/stray}}"
        #expect(throws: TemplateErrors.self) { try TemplateLibrary(templates: ["long": template]) }
        do {
            _ = try TemplateLibrary(templates: ["long": template])
        } catch let errors as TemplateErrors {
            #expect(errors.errors.map(\.description) == ["long:\(lines + 1):3: error: closing tag 'stray' has no open section to close"])
        }
        let library = try TemplateLibrary(templates: ["long": String(repeating: "<p>{{#item}}{{name}}{{/item}}</p>\n", count: lines)])
        let page = try library.render("long", context: ["item": ["name": "x"]]).text
        #expect(page == String(repeating: "<p>x</p>\n", count: lines))
    }
}
