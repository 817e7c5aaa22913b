import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Richtext heading ids and `page.toc` (`"richtext": {"headingIds": true}` in
    /// `storysite.json`), driven through the built executable.
    @Suite("storysite build, richtext heading ids, end to end")
    struct HeadingIdsEndToEndTests {
        typealias Collections = CollectionsEndToEndTests

        static let templates: [String: String] = [
            "pages/default.mustache": "intro={{{intro}}}\nmore={{{more}}}\ntoc={{#page.toc}}{{level}} {{text}} {{href}};{{/page.toc}}\n",
        ]

        static func heading(_ level: Int, _ text: String) -> [String: Any] {
            ["type": "heading", "attrs": ["level": level], "content": [["type": "text", "text": text]]]
        }

        static func workspace(settings: String?) throws -> TemporaryFolder {
            let home = try Collections.story("home", uuid: "home", name: "Home", content: [
                "intro": ["type": "doc", "content": [heading(2, "Setup"), heading(3, "Run it!")]],
                "more": ["type": "doc", "content": [heading(2, "Setup"), heading(2, "???")]],
            ])
            let workspace = try TemporaryFolder(prefix: "storysite-heading-ids")
            for (name, text) in templates { try workspace.write("Templates/" + name, text) }
            try workspace.write("Content/" + home.path, home.json)
            if let settings { try workspace.write("storysite.json", settings) }
            return workspace
        }

        @Test("headings get unique ids and page.toc lists them; without the setting the page is as before, rebuilt")
        func headingIds() async throws {
            let workspace = try Self.workspace(settings: #"{"richtext": {"headingIds": true}}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try workspace.read("Output/index.html") == """
                intro=<h2 id="setup">Setup</h2><h3 id="run-it">Run it!</h3>
                more=<h2 id="setup-2">Setup</h2><h2 id="section">???</h2>
                toc=2 Setup #setup;3 Run it! #run-it;2 Setup #setup-2;2 ??? #section;

                """)

            // Without the setting: no ids, no page.toc; the key changed, so the page is written again.
            try FileManager.default.removeItem(at: workspace.path("storysite.json"))
            let again = try await Executable.run(["build"], in: workspace.url)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try workspace.read("Output/index.html") == """
                intro=<h2>Setup</h2><h3>Run it!</h3>
                more=<h2>Setup</h2><h2>???</h2>
                toc=

                """)
        }

        @Test("a bad richtext setting exits 64 and names the key")
        func badSetting() async throws {
            let workspace = try Self.workspace(settings: #"{"richtext": {"headingIds": 1}}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 64)
            #expect(result.stderr.contains("storysite.json: error: 'richtext.headingIds' must be true or false"), "\(result.stderr)")
            #expect(!workspace.exists("Output/index.html"))
        }
    }
}
