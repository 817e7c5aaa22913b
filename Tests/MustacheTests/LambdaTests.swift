import Foundation
import Mustache
import Testing

/// The behaviours of the spec's `~lambdas` module, written as Swift closures, and the way the
/// renderer uses lambdas for helpers such as `{{#markdown}}`.
@Suite("Lambdas")
struct LambdaTests {
    private func render(_ template: String, _ context: MustacheValue) throws -> String {
        try TemplateLibrary(templates: ["test": template]).render("test", context: context).text
    }

    /// Counts calls; lambdas are `@Sendable`, so the count is guarded by a lock.
    private final class CallCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func next() -> Int {
            lock.withLock {
                count += 1
                return count
            }
        }

        var calls: Int { lock.withLock { count } }
    }

    @Test("an interpolation lambda's return value is interpolated")
    func interpolation() throws {
        let lambda = MustacheLambda { _ in "world" }
        #expect(try render("Hello, {{lambda}}!", ["lambda": .lambda(lambda)]) == "Hello, world!")
    }

    @Test("an interpolation lambda's string result is rendered as a template in the current context")
    func interpolationExpansion() throws {
        let lambda = MustacheLambda { _ in "{{planet}}" }
        #expect(try render("Hello, {{lambda}}!", ["planet": "world", "lambda": .lambda(lambda)]) == "Hello, world!")
    }

    @Test("an interpolation lambda's result is rendered with the default delimiters")
    func interpolationDelimiters() throws {
        let lambda = MustacheLambda { _ in "|planet| => {{planet}}" }
        let output = try render("{{= | | =}}\nHello, (|&lambda|)!", ["planet": "world", "lambda": .lambda(lambda)])
        #expect(output == "Hello, (|planet| => world)!")
    }

    @Test("an interpolation lambda is called again on every use")
    func interpolationMultipleCalls() throws {
        let counter = CallCounter()
        let lambda = MustacheLambda { _ in .number(Double(counter.next())) }
        #expect(try render("{{lambda}} == {{{lambda}}} == {{lambda}}", ["lambda": .lambda(lambda)]) == "1 == 2 == 3")
    }

    @Test("{{lambda}} escapes the rendered result; {{{lambda}}} does not")
    func interpolationEscaping() throws {
        let lambda = MustacheLambda { _ in ">" }
        #expect(try render("<{{lambda}}{{{lambda}}}", ["lambda": .lambda(lambda)]) == "<&gt;>")
    }

    @Test("an interpolation lambda gets no section text")
    func interpolationText() throws {
        let lambda = MustacheLambda { invocation in .string(invocation.text == nil ? "nil" : "text") }
        #expect(try render("{{lambda}}", ["lambda": .lambda(lambda)]) == "nil")
    }

    @Test("a section lambda receives the raw, unrendered section text")
    func sectionRawText() throws {
        let lambda = MustacheLambda { invocation in invocation.text == "{{x}}" ? "yes" : "no" }
        #expect(try render("<{{#lambda}}{{x}}{{/lambda}}>", ["x": "Error!", "lambda": .lambda(lambda)]) == "<yes>")
    }

    @Test("a section lambda's string result is rendered as a template")
    func sectionExpansion() throws {
        let lambda = MustacheLambda { invocation in
            .string((invocation.text ?? "") + "{{planet}}" + (invocation.text ?? ""))
        }
        #expect(try render("<{{#lambda}}-{{/lambda}}>", ["planet": "Earth", "lambda": .lambda(lambda)]) == "<-Earth->")
    }

    @Test("a section lambda's result is rendered with the section's delimiters")
    func sectionDelimiters() throws {
        let lambda = MustacheLambda { invocation in
            .string((invocation.text ?? "") + "{{planet}} => |planet|" + (invocation.text ?? ""))
        }
        let output = try render("{{= | | =}}<|#lambda|-|/lambda|>", ["planet": "Earth", "lambda": .lambda(lambda)])
        #expect(output == "<-{{planet}} => Earth->")
    }

    @Test("a section lambda is called for each section, with that section's text")
    func sectionMultipleCalls() throws {
        let lambda = MustacheLambda { invocation in .string("__\(invocation.text ?? "")__") }
        let output = try render("{{#lambda}}FILE{{/lambda}} != {{#lambda}}LINE{{/lambda}}", ["lambda": .lambda(lambda)])
        #expect(output == "__FILE__ != __LINE__")
    }

    @Test("an inverted section over a lambda is skipped and the lambda is not called")
    func invertedSection() throws {
        let counter = CallCounter()
        let lambda = MustacheLambda { _ in
            _ = counter.next()
            return false
        }
        let output = try render("<{{^lambda}}{{static}}{{/lambda}}>", ["static": "static", "lambda": .lambda(lambda)])
        #expect(output == "<>")
        #expect(counter.calls == 0)
    }

    @Test("a helper renders its raw text in the current context and returns HTML inserted verbatim")
    func markdownHelper() throws {
        // Stands in for the renderer's {{#markdown}}: render the text, convert it, return HTML.
        let markdown = MustacheLambda { invocation in
            let source = try invocation.render(invocation.text ?? "")
            let html = "<p>" + source.replacingOccurrences(of: "**", with: "<b>", options: [], range: nil) + "</p>"
            return .html(html + "{{not a tag}}")
        }
        let context: MustacheValue = [
            "markdown": .lambda(markdown),
            "blocks": [["text": "**bold** & <i>"], ["text": "plain"]],
        ]
        let output = try render("{{#blocks}}{{#markdown}}{{{text}}}{{/markdown}}|{{/blocks}}", context)
        #expect(output == "<p><b>bold<b> & <i></p>{{not a tag}}|<p>plain</p>{{not a tag}}|")
    }

    @Test("an interpolation lambda's HTML result is inserted unescaped")
    func interpolationHTML() throws {
        let lambda = MustacheLambda { _ in .html("<hr>") }
        #expect(try render("{{lambda}}", ["lambda": .lambda(lambda)]) == "<hr>")
    }

    @Test("render(_:) renders the section's raw text as a template, line breaks included")
    func renderRawText() throws {
        let lambda = MustacheLambda { invocation in .html("[" + (try invocation.render(invocation.text ?? "")) + "]") }
        let output = try render("{{#item}}{{#wrap}}\n{{name}}\n{{/wrap}}{{/item}}", [
            "name": "outer", "item": ["name": "inner"], "wrap": .lambda(lambda),
        ])
        #expect(output == "[\ninner\n]")
    }

    @Test("render(_:) renders other text in the current context with the section's delimiters")
    func renderOtherText() throws {
        let lambda = MustacheLambda { invocation in .html(try invocation.render("<% name %>!")) }
        let output = try render("{{=<% %>=}}<%#shout%>ignored<%/shout%>", ["name": "Ann", "shout": .lambda(lambda)])
        #expect(output == "Ann!")
    }

    @Test("other results are rendered as if they were the value of the name")
    func otherResults() throws {
        let list = MustacheLambda { _ in [["n": 1], ["n": 2]] }
        let no = MustacheLambda { _ in false }
        let number = MustacheLambda { _ in 2.5 }
        let context: MustacheValue = ["list": .lambda(list), "no": .lambda(no), "number": .lambda(number)]
        #expect(try render("{{#list}}<{{n}}>{{/list}}{{#no}}hidden{{/no}}{{number}}", context) == "<1><2>2.5")
    }

    @Test("an error thrown by a lambda propagates out of render")
    func thrownErrorPropagates() throws {
        struct HelperFailed: Error, Equatable {}
        let failing = MustacheLambda { _ in throw HelperFailed() }
        #expect(throws: HelperFailed()) {
            try render("{{#items}}{{#failing}}x{{/failing}}{{/items}}", ["items": [1], "failing": .lambda(failing)])
        }
    }

    @Test("lambda output that does not compile is reported at the lambda's tag")
    func invalidOutput() throws {
        let broken = MustacheLambda { _ in "{{#open}}" }
        let error = try #require(throws: TemplateError.self) {
            try render("line\n  {{broken}}", ["broken": .lambda(broken)])
        }
        #expect(error == TemplateError(
            path: "test", line: 2, column: 3,
            message: "lambda 'broken' returned text that is not a valid template: "
                + "section 'open' opened here is never closed (at 1:1 of that text)"))
    }

    @Test("partials named in lambda output resolve in the library, and missing ones are reported")
    func partialsInOutput() throws {
        let lambda = MustacheLambda { _ in "{{>greeting}}{{>absent}}" }
        let library = try TemplateLibrary(templates: ["test": "{{lambda}}", "greeting": "Hi {{name}}"])
        let rendered = try library.render("test", context: ["name": "Bo", "lambda": .lambda(lambda)])
        #expect(rendered.text == "Hi Bo")
        #expect(rendered.missingPartials == ["absent"])
    }

    @Test("a lambda that keeps expanding to itself stops with a nesting error")
    func runawayLambda() throws {
        let again = MustacheLambda { _ in "{{again}}" }
        #expect(throws: RenderError.self) {
            try render("{{again}}", ["again": .lambda(again)])
        }
    }
}
