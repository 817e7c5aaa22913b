import Foundation
import Mustache
import Testing
import TestSupport

/// Every kind of template error, with the position of the offending tag's opening delimiter.
@Suite("Template errors")
struct TemplateErrorTests {
    /// The errors compiling `source` as the in-memory template `page` reports.
    private func errors(_ source: String) -> [TemplateError] {
        do {
            _ = try TemplateLibrary(templates: ["page": source])
            return []
        } catch let errors as TemplateErrors {
            return errors.errors
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
    }

    private func error(_ line: Int, _ column: Int, _ message: String) -> TemplateError {
        TemplateError(path: "page", line: line, column: column, message: message)
    }

    @Test("a section that is never closed is reported where it opens")
    func unclosedSection() {
        #expect(errors("<ul>\n    {{#columns}}\n<li>{{name}}</li>\n</ul>\n") == [
            error(2, 5, "section 'columns' opened here is never closed")
        ])
    }

    @Test("inverted sections, parents and blocks that are never closed are reported, innermost first")
    func unclosedContainers() {
        #expect(errors("{{^empty}}\n{{<layout}}\n{{$main}}") == [
            error(1, 1, "inverted section 'empty' opened here is never closed"),
            error(2, 1, "parent 'layout' opened here is never closed"),
            error(3, 1, "block 'main' opened here is never closed"),
        ])
    }

    @Test("a closing tag that does not match the open section is reported where it stands")
    func mismatchedClose() {
        #expect(errors("{{#items}}\n  {{#tags}}{{.}}{{/items}}\n") == [
            error(2, 17, "closing tag 'items' does not match section 'tags' opened at 2:3")
        ])
    }

    @Test("a closing tag with nothing open is reported")
    func strayClose() {
        #expect(errors("done {{/items}}") == [error(1, 6, "closing tag 'items' has no open section to close")])
    }

    @Test("an empty tag is reported")
    func emptyTag() {
        #expect(errors("a {{}} b {{ }}") == [
            error(1, 3, "empty tag: expected a name"),
            error(1, 10, "empty tag: expected a name"),
        ])
    }

    @Test("a tag without a name after its sigil is reported")
    func namelessTags() {
        #expect(errors("{{#}}x{{/}}\n{{>}}\n{{>*}}\n{{$}}{{/}}") == [
            error(1, 1, "section tag has no name"),
            error(2, 1, "partial tag has no name"),
            error(3, 1, "partial tag has no name after '*'"),
            error(4, 1, "block tag has no name"),
        ])
    }

    @Test("a tag still open at the end of the file is reported where it opens")
    func unclosedTagAtEnd() {
        #expect(errors("Hello\n  {{name") == [error(2, 3, "tag '{{name' is never closed: expected '}}'")])
        #expect(errors("{{{html}}") == [error(1, 1, "tag '{{{html}}' is never closed: expected '}}}'")])
    }

    @Test("a tag that runs into the next tag is reported, and the next tag still compiles")
    func unclosedTagBeforeNext() {
        #expect(errors("{{title\n<h1>{{#a}}</h1>") == [
            error(1, 1, "tag '{{title' is not closed before the next '{{'"),
            error(2, 5, "section 'a' opened here is never closed"),
        ])
    }

    @Test("names with whitespace or empty dotted parts are reported")
    func malformedNames() {
        #expect(errors("{{first name}}\n{{a..b}} {{.c}}\n{{>my partial}}") == [
            error(1, 1, "'first name' is not a valid name: names cannot contain whitespace"),
            error(2, 1, "'a..b' is not a valid name: a dotted name cannot have an empty part"),
            error(2, 10, "'.c' is not a valid name: a dotted name cannot have an empty part"),
            error(3, 1, "'my partial' is not a valid partial name: names cannot contain whitespace"),
        ])
    }

    @Test("bad delimiter changes are reported and the old delimiters stay")
    func badDelimiters() {
        #expect(errors("{{=<% %>}}\n{{=<%=}}\n{{=<= =>=}}\n{{ok}}") == [
            error(1, 1, "delimiter change must end with '=' before the closing delimiter, as in {{=<% %>=}}"),
            error(
                2, 1,
                "delimiter change needs an opening and a closing delimiter separated by whitespace, as in {{=<% %>=}}"),
            error(3, 1, "delimiters cannot contain '='"),
        ])
    }

    @Test("tags other than blocks directly inside a parent are reported")
    func tagsInsideParent() {
        #expect(errors("{{<layout}}\n  {{title}}\n  {{#items}}{{/items}}\n  {{>footer}}\n{{/layout}}") == [
            error(2, 3, "only blocks can appear directly inside parent 'layout', not variable 'title'"),
            error(3, 3, "only blocks can appear directly inside parent 'layout', not section 'items'"),
            error(4, 3, "only blocks can appear directly inside parent 'layout', not partial 'footer'"),
        ])
    }

    @Test("a block given twice in one parent is reported at the second")
    func duplicateBlock() {
        #expect(errors("{{<layout}}\n{{$main}}a{{/main}}\n{{$main}}b{{/main}}\n{{/layout}}") == [
            error(3, 1, "block 'main' is given twice in parent 'layout' (first at 2:1)")
        ])
    }

    @Test("columns count characters, not bytes")
    func columnsInCharacters() {
        #expect(errors("héllo 👋🏽 {{#a}}") == [error(1, 9, "section 'a' opened here is never closed")])
    }

    @Test("the description reads like a compiler diagnostic")
    func description() {
        let error = TemplateError(
            path: "Templates/components/grid.mustache", line: 12, column: 5,
            message: "section 'columns' opened here is never closed")
        #expect(error.description
            == "Templates/components/grid.mustache:12:5: error: section 'columns' opened here is never closed")
        #expect(TemplateError(path: "Templates", line: 0, column: 0, message: "template folder not found").description
            == "Templates: error: template folder not found")
    }

    @Test("a folder library reports every error of every file, sorted by path")
    func folderReportsAllErrors() throws {
        let folder = try TemporaryFolder()
        try folder.write("Templates/layout.mustache", "{{$main}}\n{{/mian}}\n")
        let elevenEmptyLines = String(repeating: "\n", count: 11)
        try folder.write("Templates/components/grid.mustache", elevenEmptyLines + "    {{#columns}}{{}}")
        try folder.write("Templates/components/teaser.mustache", "<p>{{title}}</p>")
        try folder.write("Templates/article.mustache", "{{name")
        let templates = URL(fileURLWithPath: "Templates", relativeTo: folder.url)

        let thrown = try #require(throws: TemplateErrors.self) { try TemplateLibrary(folder: templates) }
        #expect(thrown.description == """
            Templates/article.mustache:1:1: error: tag '{{name' is never closed: expected '}}'
            Templates/components/grid.mustache:12:5: error: section 'columns' opened here is never closed
            Templates/components/grid.mustache:12:17: error: empty tag: expected a name
            Templates/layout.mustache:2:1: error: closing tag 'mian' does not match block 'main' opened at 1:1
            """)
    }

    @Test("a missing folder and unreadable files are reported")
    func folderProblems() throws {
        let folder = try TemporaryFolder()
        let missing = try #require(throws: TemplateErrors.self) {
            try TemplateLibrary(folder: folder.path("Nowhere"))
        }
        #expect(missing.errors.map(\.message) == ["template folder not found"])

        try Data([0x66, 0xFF, 0xFE]).write(to: folder.path("binary.mustache"))
        let binary = try #require(throws: TemplateErrors.self) { try TemplateLibrary(folder: folder.url) }
        #expect(binary.errors == [TemplateError(
            path: folder.url.relativePath + "/binary.mustache", line: 0, column: 0,
            message: "file is not valid UTF-8 text")])
    }

    @Test("rendering an unknown template name throws a clear error")
    func unknownTemplate() throws {
        let library = try TemplateLibrary(templates: ["page": "x"])
        let error = try #require(throws: RenderError.self) { try library.render("pages/home", context: [:]) }
        #expect(error == .unknownTemplate("pages/home"))
        #expect(error.description == "no template named 'pages/home'")
    }

    @Test("a template that includes itself without end stops with a nesting error")
    func runawayRecursion() throws {
        let library = try TemplateLibrary(templates: ["loop": "x{{>loop}}"])
        let error = try #require(throws: RenderError.self) { try library.render("loop", context: [:]) }
        guard case .nestingTooDeep(let templates) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(templates == Array(repeating: "loop", count: 10))
    }
}
