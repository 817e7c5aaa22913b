import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// The global story `storysite.json` names must exist; the default one may be missing.
    @Suite("storysite build, the global story, end to end")
    struct GlobalStoryEndToEndTests {
        typealias Build = BuildEndToEndTests
        typealias Folders = FolderLanguagesEndToEndTests

        /// A home page and a `settings` story, with `storysite.json` holding `settings`.
        static func site(settings: String?) throws -> TemporaryFolder {
            let workspace = try Build.smallSite(stories: [
                "home.json": Build.story("home", uuid: "u-home"),
                "settings.json": #"{"name": "Settings", "uuid": "u-settings", "full_slug": "settings", "content": {"component": "global", "_uid": "g", "footer": "Footer"}}"#,
            ])
            try workspace.write("Templates/pages/default.mustache", "<h1>{{story.name}}</h1><footer>{{global.footer}}</footer>")
            if let settings { try workspace.write("storysite.json", settings) }
            return workspace
        }

        @Test("a global that names no story fails the build (exit 1), naming the key and the value, and writes nothing",
              arguments: ["setings", "global"])
        func missingExplicitGlobal(global: String) async throws {
            let workspace = try Self.site(settings: #"{"global": "\#(global)"}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains(
                "storysite.json: error: 'global' names '\(global)', which no story has; fix the slug or remove the setting\n"), "\(result.stderr)")
            #expect(!workspace.exists("Output/index.html"))
        }

        @Test("a global that names a story gives every page its content and no page of its own")
        func explicitGlobal() async throws {
            let workspace = try Self.site(settings: #"{"global": "settings"}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(" 0 warnings"), "\(result.stdout)\(result.stderr)")
            #expect(try workspace.read("Output/index.html") == "<h1>home</h1><footer>Footer</footer>")
            #expect(!workspace.exists("Output/settings/index.html"))
        }

        @Test("without the setting, a missing global story is no problem")
        func missingDefaultGlobal() async throws {
            let workspace = try Self.site(settings: nil)
            try FileManager.default.removeItem(at: workspace.path("Content/settings.json"))
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(" 0 warnings"), "\(result.stdout)\(result.stderr)")
            #expect(try workspace.read("Output/index.html") == "<h1>home</h1><footer></footer>")
        }

        @Test("with field-level translation, a missing global is one error, not one per language")
        func missingGlobalInEveryLanguage() async throws {
            let workspace = try Self.site(settings: #"{"global": "setings", "languages": ["en", "de", "fr"]}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.components(separatedBy: "'global' names 'setings'").count == 2, "\(result.stderr)")
        }

        @Test("with folder-level translation, each language's folder must hold the global story the setting names")
        func missingGlobalInOneLanguage() async throws {
            let stories = try Folders.space().filter { $0.path != "de/global.json" }
            let explicit = try Folders.workspace(stories, settings: #"{"languages": ["en", "de", "fr"], "translation": "folder", "global": "global"}"#)
            let result = try await Executable.run(["build"], in: explicit.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains(
                "storysite.json: error: 'global' names 'global', which no story has in de/ ('de/global'); add the story, fix the slug or remove the setting\n"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("in en/") && !result.stderr.contains("in fr/"), "\(result.stderr)")

            // Left at its default, the German pages simply have no global story.
            let implicit = try Folders.workspace(stories, settings: #"{"languages": ["en", "de", "fr"], "translation": "folder"}"#)
            let build = try await Executable.run(["build"], in: implicit.url)
            #expect(build.status == 0, "\(build.stderr)")
            #expect(try Folders.Collections.facts("footer", "Output/de/index.html", in: implicit) == [""])
            #expect(try Folders.Collections.facts("footer", "Output/fr/index.html", in: implicit) == ["footer-fr"])
        }
    }
}
