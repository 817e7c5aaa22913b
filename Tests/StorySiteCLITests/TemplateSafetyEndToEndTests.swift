import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Hostile or clumsy content in the bundled demo: what the built pages and the printed
    /// messages make of it.
    @Suite("template and output safety, end to end")
    struct TemplateSafetyEndToEndTests {
        /// The demo with `blocks` appended to the home page's body and `navItems` to the global
        /// story's header navigation.
        static func demo(blocks: [[String: Any]], navItems: [[String: Any]] = []) throws -> TemporaryFolder {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            try append(blocks, to: "body", in: workspace.path("Content/home.json"))
            try append(navItems, to: "header_nav", in: workspace.path("Content/global.json"))
            return workspace
        }

        private static func append(_ blocks: [[String: Any]], to field: String, in file: URL) throws {
            var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            var story = try #require(document["story"] as? [String: Any] ?? document)
            var content = try #require(story["content"] as? [String: Any])
            content[field] = (content[field] as? [Any] ?? []) + blocks
            story["content"] = content
            if document["story"] != nil { document["story"] = story } else { document = story }
            try JSONSerialization.data(withJSONObject: document).write(to: file)
        }

        static func block(_ component: String, _ fields: [String: Any] = [:]) -> [String: Any] {
            fields.merging(["component": component, "_uid": UUID().uuidString]) { first, _ in first }
        }

        @Test("script URLs in content objects that are neither multilinks nor assets never reach a page's links")
        func scriptURLsInPlainObjects() async throws {
            let workspace = try Self.demo(
                blocks: [
                    Self.block("cta", ["heading": "Act", "label": "Go", "link": ["href": "javascript:alert(1)"]]),
                    Self.block("feature", ["title": "F", "link_label": "More", "link": ["href": "JaVaScRiPt:alert(2)"]]),
                    Self.block("hero", ["headline": "H", "primary_label": "P", "primary_link": ["href": " java\tscript:alert(3)"]]),
                    Self.block("download", ["heading": "D", "label": "Get", "file": ["href": "data:text/html,<script>alert(4)</script>"]]),
                ],
                navItems: [Self.block("nav_item", ["label": "Evil", "link": ["href": "javascript:alert(5)"]])])
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            for page in ["Output/index.html", "Output/about/index.html"] {
                let html = try String(contentsOf: workspace.path(page), encoding: .utf8)
                let hrefs = html.components(separatedBy: "href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }).lowercased() }
                #expect(!hrefs.contains { $0.contains("script:") || $0.hasPrefix("data:") }, "\(page): \(hrefs)")
                #expect(html.contains("href=\"about:invalid#unsafe-url\""), "\(page)")
            }
            #expect(result.stderr.contains("URL 'javascript:alert(1)' refused"), "\(result.stderr)")
            #expect(result.stderr.contains("Templates/components/nav_item.mustache:2:"), "\(result.stderr)")
        }

        @Test("blocks named like page templates or oddly are missing components: a warning each, and the build succeeds")
        func pageTemplateNamesAsComponents() async throws {
            let workspace = try Self.demo(blocks: ["layout", "404", "pages/page", "../layout", "", "pages/default"].map { Self.block($0) })
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            for component in ["layout", "404", "pages/page", "../layout", "pages/default"] {
                #expect(result.stderr.contains("warning: no template for component '\(component)', used by home"), "\(result.stderr)")
            }
            let html = try String(contentsOf: workspace.path("Output/index.html"), encoding: .utf8)
            #expect(html.components(separatedBy: "<html").count == 2, "the layout rendered inside the page")
        }

        @Test("control characters in content reach neither the terminal nor a CI log raw, whatever the format")
        func controlCharactersInMessages() async throws {
            let hostileTarget = "x\n::error file=INJECTED,line=1::pwned\u{1B}]0;owned\u{7}\u{0}"
            let workspace = try Self.demo(blocks: [
                Self.block("cta", ["heading": "A", "label": "B", "link": [
                    "id": "no-such-uuid", "linktype": "story", "fieldtype": "multilink", "cached_url": hostileTarget,
                ]]),
                Self.block("odd\u{1B}[31mcomponent\u{7}"),
            ])
            let build = try await Executable.run(["build"], in: workspace.url)
            #expect(build.status == 0, "\(build.stderr)")
            #expect(build.stderr.contains(#"x\n::error file=INJECTED,line=1::pwned\u{1B}]0;owned\u{7}\u{0}"#), "\(build.stderr)")
            #expect(build.stderr.contains(#"'odd\u{1B}[31mcomponent\u{7}'"#), "\(build.stderr)")
            for format in ["text", "github", "junit", "json"] {
                let check = try await Executable.run(["check", "--format", format], in: workspace.url)
                #expect(check.status == 1, "\(format): \(check.stderr)")
                for output in [build.stdout, build.stderr, check.stdout, check.stderr] {
                    #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(format): \(output)")
                    #expect(!output.split(separator: "\n").contains { $0.hasPrefix("::error file=INJECTED") }, "\(format): \(output)")
                }
            }
        }
    }
}
