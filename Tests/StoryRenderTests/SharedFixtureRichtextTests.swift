import Foundation
import StoryModel
import StoryRender
import TestSupport
import Testing

@Suite("Real Storyblok richtext renders to well-formed HTML")
struct SharedFixtureRichtextTests {
    static let fixturesAvailable = SharedFixtures.available("storyblok-fixtures")

    /// Every JSON file under `../shared/storyblok-fixtures/`, by path relative to that folder.
    static func fixtureFiles() -> [String] {
        guard let root = SharedFixtures.url("storyblok-fixtures"),
              let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { ($0 as? URL)?.path }
            .filter { $0.hasSuffix(".json") }
            .map { String($0.dropFirst(root.path.count + 1)) }
            .sorted()
    }

    /// Every richtext document in `value` with its field path.
    static func richtextDocuments(in value: JSONValue, path: String = "") -> [(path: String, document: JSONValue)] {
        switch value {
        case .object(let object):
            if object["type"]?.stringValue == "doc" { return [(path, value)] }
            return object.flatMap { richtextDocuments(in: $0.value, path: path.isEmpty ? $0.key : path + "." + $0.key) }
        case .array(let array):
            return array.enumerated().flatMap { richtextDocuments(in: $0.element, path: "\(path)[\($0.offset)]") }
        default:
            return []
        }
    }

    @Test("every richtext document in the shared fixtures renders to balanced HTML",
          .enabled(if: fixturesAvailable, "../shared/storyblok-fixtures is absent: real Storyblok content is not available here"))
    func allFixtures() throws {
        let files = Self.fixtureFiles()
        #expect(!files.isEmpty)
        var documentCount = 0
        for file in files {
            let data = try Data(contentsOf: SharedFixtures.url("storyblok-fixtures/" + file)!)
            let value = try JSONValue(parsing: data)
            for (path, document) in Self.richtextDocuments(in: value) {
                documentCount += 1
                let renderer = RichtextRenderer(
                    links: PageLinks(resolver: testResolver, pageURL: "blog/post/"), story: file,
                    renderBlocks: { body, _, _ in body.values.map { _ in "<div></div>" }.joined() })
                var warnings: [RenderWarning] = []
                let html = renderer.render(document, fieldPath: path, warnings: &warnings)
                #expect(HTMLBalance.problem(in: html) == nil, "\(file) \(path)")
                #expect(!html.lowercased().contains("<script"), "\(file) \(path)")
            }
        }
        #expect(documentCount > 10)
    }

    @Test("the editor-shaped monoblok document renders to the expected markup",
          .enabled(if: fixturesAvailable, "../shared/storyblok-fixtures is absent: real Storyblok content is not available here"))
    func monoblokDocument() throws {
        let data = try Data(contentsOf: SharedFixtures.url("storyblok-fixtures/monoblok/richTextObject.json")!)
        let (html, warnings) = renderRichtext(String(decoding: data, as: UTF8.self))
        #expect(html.hasPrefix(#"<p></p><p>Hola<strong>in bold</strong></p><p><a href="mailto:jane@example.com">jane@example.com</a></p><blok:custom_component><p></p>"#))
        #expect(html.contains("<ol><li><p>item in another list</p></li><li><p>another item</p></li></ol>"))
        #expect(html.contains("<p>some words after an &lt;hr&gt;</p>"))
        #expect(html.contains("<p><code>inline code</code> </p>"))
        #expect(warnings.isEmpty)
    }
}

/// A small checker that tags open and close in order (void elements need no close).
enum HTMLBalance {
    static let voidElements: Set<String> = ["br", "hr", "img", "input", "meta", "link", "source", "wbr", "col", "area", "base", "embed", "track", "param"]

    /// A description of the first imbalance, or nil when every tag is closed in order.
    static func problem(in html: String) -> String? {
        var stack: [String] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            if rest.hasPrefix("!--") {
                guard let end = rest.range(of: "-->") else { return "unclosed comment" }
                rest = rest[end.upperBound...]
                continue
            }
            guard let close = rest.firstIndex(of: ">") else { return "unclosed tag" }
            if rest.hasPrefix("!") {  // <!doctype html>
                rest = rest[rest.index(after: close)...]
                continue
            }
            let tag = rest[..<close]
            rest = rest[rest.index(after: close)...]
            let isEnd = tag.hasPrefix("/")
            let name = (isEnd ? tag.dropFirst() : tag).prefix { $0.isLetter || $0.isNumber || $0 == ":" || $0 == "_" }.lowercased()
            if voidElements.contains(name) { continue }
            if isEnd {
                guard stack.last == name else { return "</\(name)> closes <\(stack.last ?? "nothing")>" }
                stack.removeLast()
            } else {
                stack.append(name)
            }
        }
        return stack.isEmpty ? nil : "<\(stack.last!)> is never closed"
    }
}
