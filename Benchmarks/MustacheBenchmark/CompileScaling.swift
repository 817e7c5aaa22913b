import Foundation
import Mustache

/// How compile time grows with a template's size and nesting: it should grow linearly. Each shape
/// is compiled at 1,000, 10,000 and 100,000 lines, and rendered once, so a template that compiles
/// is also known to work.
enum CompileScaling {
    static let sizes = [1_000, 10_000, 100_000]

    static func run() {
        print("mustache compile time (best of 3), by template size:")
        for lines in sizes { measure("lines of tags", lines: lines, template: linesOfTags(lines)) }
        for depth in sizes { measure("nested sections", lines: 2 * depth + 1, template: nestedSections(depth)) }
    }

    /// `lines` lines, each with variables, a section, an inverted section and a URL attribute.
    static func linesOfTags(_ lines: Int) -> String {
        String(repeating: "<li class=\"{{kind}}\"><a href=\"{{href}}\">{{#item}}{{name}}{{/item}}{{^item}}none{{/item}}</a> {{{html}}}</li>\n", count: lines)
    }

    /// `depth` sections, each inside the one before, around one variable.
    static func nestedSections(_ depth: Int) -> String {
        String(repeating: "{{#item}}\n", count: depth) + "{{name}}\n" + String(repeating: "{{/item}}\n", count: depth)
    }

    static func measure(_ shape: String, lines: Int, template: String) {
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000)
        var outcome = ""
        for _ in 0..<3 {
            var library: TemplateLibrary?
            var failure: (any Error)?
            let time = clock.measure {
                do { library = try TemplateLibrary(templates: ["t": template]) } catch { failure = error }
            }
            best = min(best, time)
            if let library {
                let context: MustacheValue = [
                    "kind": "x", "href": "/a/", "item": ["name": "n"], "html": .html("<b>b</b>"),
                ]
                let bytes = (try? library.render("t", context: context).text.utf8.count) ?? -1
                outcome = "renders \(bytes) bytes"
            } else {
                outcome = "refused: \(String(describing: failure!).prefix(120))"
            }
        }
        let milliseconds = Double(best.components.seconds) * 1e3 + Double(best.components.attoseconds) / 1e15
        let size = String(format: "%7d", lines)
        print("  \(shape), \(size) lines (\(template.utf8.count / 1024) KB): \(String(format: "%9.1f", milliseconds)) ms; \(outcome)")
    }
}
