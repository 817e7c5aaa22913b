import Foundation
import Mustache
import Testing

@Suite("Values")
struct MustacheValueTests {
    private func render(_ template: String, _ context: MustacheValue) throws -> String {
        try TemplateLibrary(templates: ["test": template]).render("test", context: context).text
    }

    @Test("{{x}} escapes & < > \" ' and leaves other text, including combining marks, alone")
    func escaping() throws {
        #expect(try render("{{x}}", ["x": "a & b < c > d \" e ' f"]) == "a &amp; b &lt; c &gt; d &quot; e &#39; f")
        #expect(try render("{{x}}", ["x": "<\u{301}é—ok"]) == "&lt;\u{301}é—ok")
        #expect(try render("{{x}}", ["x": "no special characters"]) == "no special characters")
    }

    @Test("a lazy value is made only when a template reads it, once, and reads like the value it makes")
    func lazyValues() throws {
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
            func tick() { lock.withLock { count += 1 } }
        }
        let made = Counter()
        let card: MustacheValue = .lazy(MustacheLazyValue {
            made.tick()
            return ["title": "A <b>", "tags": ["x", "y"], "empty": []]
        })
        #expect(try render("{{name}}", ["name": "n", "card": card]) == "n")
        #expect(made.count == 0, "nothing read it")
        let template = "{{card.title}}|{{#card}}{{title}}{{/card}}|{{#card.tags}}{{.}}{{/card.tags}}|{{^card.empty}}none{{/card.empty}}|{{#card.empty}}x{{/card.empty}}"
        #expect(try render(template, ["card": card]) == "A &lt;b&gt;|A &lt;b&gt;|xy|none|")
        #expect(made.count == 1, "made once for every read")
        let list: MustacheValue = ["items": .array([.lazy(MustacheLazyValue { "one" }), .lazy(MustacheLazyValue { .bool(false) })])]
        #expect(try render("{{#items}}[{{.}}]{{/items}}", list) == "[one][false]")
        #expect(try render("{{#flag}}yes{{/flag}}{{^flag}}no{{/flag}}", ["flag": .lazy(MustacheLazyValue { .bool(false) })]) == "no")
    }

    @Test("escaping finds special characters at every position of 8-byte words")
    func escapingAtEveryPosition() throws {
        let library = try TemplateLibrary(templates: ["test": "{{x}}"])
        for length in 0...24 {
            for position in 0..<max(length, 1) {
                for special in ["&", "<", ">", "\"", "'", "%", "é"] {
                    var characters = Array(repeating: "a", count: length)
                    if position < length { characters[position] = special }
                    let text = characters.joined()
                    let expected = text
                        .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                        .replacingOccurrences(of: "'", with: "&#39;")
                    #expect(try library.render("test", context: ["x": .string(text)]).text == expected)
                }
            }
        }
    }

    @Test("output with other than ASCII characters, sparse or dense, comes out unchanged")
    func nonASCIIOutput() throws {
        let library = try TemplateLibrary(templates: ["test": "{{{x}}}"])
        let ascii = String(repeating: "abcdefghij", count: 300)
        var samples = [ascii, "é" + ascii, ascii + "é", String(repeating: "Größe Übersicht ", count: 400)]
        for run in [15, 16, 17, 255, 256, 257, 2047, 2048, 2049] {
            let stretch = String(ascii.prefix(run))
            samples.append(String(repeating: "€\(stretch)👋🏽", count: 6))
            samples.append(String(repeating: "ü", count: run) + stretch + "—")
        }
        for sample in samples {
            #expect(try library.render("test", context: ["x": .string(sample)]).text == sample)
        }
    }

    @Test("{{{x}}} and {{&x}} do not escape")
    func unescaped() throws {
        #expect(try render("{{{x}}}{{&x}}", ["x": "<b>"]) == "<b><b>")
    }

    @Test("safe HTML is inserted unescaped even by {{x}}")
    func safeHTML() throws {
        #expect(try render("{{x}}|{{{x}}}", ["x": .html("<a href=\"/\">Home &amp; away</a>")])
            == "<a href=\"/\">Home &amp; away</a>|<a href=\"/\">Home &amp; away</a>")
    }

    @Test("whole numbers print without a decimal point, others in their shortest form")
    func numbers() throws {
        let context: MustacheValue = ["a": 85, "b": 1.21, "c": -3, "d": 0.1, "e": -0.0, "f": 1e21, "g": 2.5e-7]
        #expect(try render("{{a}} {{b}} {{c}} {{d}} {{e}} {{f}} {{g}}", context) == "85 1.21 -3 0.1 0 1e+21 2.5e-07")
    }

    @Test("booleans print as true and false; arrays, objects and null print nothing")
    func otherInterpolations() throws {
        let context: MustacheValue = ["yes": true, "no": false, "list": [1, 2], "object": ["a": 1], "nothing": .null]
        #expect(try render("{{yes}} {{no}} [{{list}}{{object}}{{nothing}}{{missing}}]", context) == "true false []")
    }

    @Test("null, false, 0, empty strings and empty arrays are falsey; everything else is truthy")
    func truthiness() throws {
        let falsey: [MustacheValue] = [.null, false, 0, "", .html(""), []]
        let truthy: [MustacheValue] = [
            true, 1, -0.5, "text", .html("<br>"), [false], [:], .lambda(MustacheLambda { _ in .null }),
        ]
        for value in falsey {
            #expect(try render("{{#v}}yes{{/v}}{{^v}}no{{/v}}", ["v": value]) == "no")
        }
        for value in truthy {
            #expect(try render("{{^v}}no{{/v}}", ["v": value]) == "")
        }
    }

    @Test("a section over a non-list value pushes it, so {{.}} reads it")
    func sectionPushesValue() throws {
        #expect(try render("{{#name}}<{{.}}>{{/name}}{{#n}}({{.}}){{/n}}", ["name": "Ann", "n": 4]) == "<Ann>(4)")
    }

    @Test("a dictionary literal keeps the last value of a repeated key")
    func dictionaryLiteral() throws {
        let context: MustacheValue = ["a": 1, "a": 2]
        #expect(try render("{{a}}", context) == "2")
    }

    @Test("objects of every size find, replace and remove members, before and after they are indexed")
    func objectMembers() throws {
        // Objects of more than 32 members are indexed.
        for size in [0, 1, 8, 32, 33, 200] {
            var object = MustacheObject()
            for index in 0..<size { object["key\(index)"] = .number(Double(index)) }
            for index in 0..<size {
                guard case .number(let number)? = object["key\(index)"] else {
                    Issue.record("size \(size): key\(index) missing")
                    continue
                }
                #expect(number == Double(index))
            }
            #expect(object["absent"] == nil)
            object["key0"] = "replaced"
            object["key1"] = nil
            object["late"] = true
            let expectedCount = (size == 0 ? 1 : size) - (size > 1 ? 1 : 0) + 1  // key0 added if new, key1 gone, late added
            #expect(object.count == expectedCount)
            if size > 1 {
                #expect(try render("{{key0}} [{{key1}}] {{late}} {{key\(size - 1)}}", .object(object)) == "replaced [] true \(size - 1)")
            }
            #expect(object.members.map(\.name).last == "late")
        }
    }
}
