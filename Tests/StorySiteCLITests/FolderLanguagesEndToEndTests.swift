import FakeStoryblokAPI
import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Folder-level translation (one tree per language), driven through the built executable.
    @Suite("storysite build, languages by folder, end to end")
    struct FolderLanguagesEndToEndTests {
        typealias Collections = CollectionsEndToEndTests

        static let templates: [String: String] = [
            "layout.mustache": "<html lang=\"{{page.lang}}\">{{$main}}{{/main}}\nfooter={{global.footer}}\n"
                + "{{#page.translations}}translation={{lang}}|<a href=\"{{href}}\">{{name}}</a>|{{url}}|{{current}}\n{{/page.translations}}</html>\n",
            "pages/default.mustache":
                "{{<layout}}{{$main}}\nname={{story.name}}\n{{#body}}{{>*component}}{{/body}}{{#page.children}}child=<a href=\"{{href}}\">{{name}}</a>\n{{/page.children}}{{/main}}{{/layout}}",
            "components/teaser.mustache": "link=<a href=\"{{link.href}}\">{{link.title}}</a>\n",
        ]

        /// A story of language `lang` at `<lang>/<slug>`, in translation group `group`, with teasers linking to `links` (UUIDs).
        static func story(_ lang: String, _ slug: String, group: String, name: String, links: [String] = [], alternates: [String] = [])
            throws -> Collections.StoryFile {
            let alternateObjects: [[String: Any]] = alternates.map { ["full_slug": $0] }
            return try Collections.story(
                "\(lang)/\(slug)", uuid: "\(lang)-\(slug)", name: name, linksTo: links,
                raw: ["group_id": group, "alternates": alternateObjects])
        }

        /// English, German and French trees; the French one lacks `only`, which its home links to.
        static func space() throws -> [Collections.StoryFile] {
            var stories: [Collections.StoryFile] = []
            for (lang, home, about) in [("en", "Home", "About"), ("de", "Startseite", "Über uns"), ("fr", "Accueil", "À propos")] {
                let others = ["en", "de", "fr"].filter { $0 != lang }
                stories.append(try story(lang, "home", group: "g-home", name: home, links: ["en-about", "en-only", "\(lang)-blog"], alternates: others.map { "\($0)/home" }))
                stories.append(try story(lang, "about", group: "g-about", name: about, alternates: others.map { "\($0)/about" }))
                var global = try Collections.story("\(lang)/global", uuid: "\(lang)-global", content: ["component": "global", "footer": "footer-\(lang)"])
                global.path = "\(lang)/global.json"
                stories.append(global)
                stories.append(try Collections.story("\(lang)/blog/", uuid: "\(lang)-blog", name: "Blog \(lang)", raw: ["group_id": "g-blog"]))
                stories.append(try Collections.story("\(lang)/blog/post", uuid: "\(lang)-post", name: "Post \(lang)", raw: ["group_id": "g-post"]))
            }
            stories.append(try story("en", "only", group: "g-only", name: "Only English", alternates: ["de/only"]))
            stories.append(try story("de", "only", group: "g-only", name: "Nur Deutsch", alternates: ["en/only"]))
            return stories
        }

        static func workspace(_ stories: [Collections.StoryFile], settings: String) throws -> TemporaryFolder {
            let workspace = try Collections.workspace(stories, settings: settings)
            for (name, text) in templates { try workspace.write("Templates/" + name, text) }
            for name in ["facts", "404", "pages/tag", "pages/tags"] { try? FileManager.default.removeItem(at: workspace.path("Templates/\(name).mustache")) }
            return workspace
        }

        static let settings = #"{"languages": ["en", "de", "fr"], "translation": "folder", "baseURL": "https://example.com/"}"#

        @Test("each language is crawled from its folder's home; pages keep their folder paths; homes are at the root and the codes")
        func layout() async throws {
            let workspace = try Self.workspace(try Self.space(), settings: Self.settings)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            let files = try Collections.files(in: workspace.path("Output")).filter { $0.hasSuffix(".html") }
            #expect(files == [
                "404.html", "index.html", "en/about/index.html", "en/only/index.html", "en/blog/index.html", "en/blog/post/index.html",
                "de/index.html", "de/about/index.html", "de/only/index.html", "de/blog/index.html", "de/blog/post/index.html",
                "fr/index.html", "fr/about/index.html", "fr/blog/index.html", "fr/blog/post/index.html",
            ])
            let facts = { (key: String, path: String) in try Collections.facts(key, path, in: workspace) }
            #expect(try workspace.read("Output/de/index.html").hasPrefix(#"<html lang="de">"#))
            #expect(try facts("footer", "Output/de/index.html") == ["footer-de"], "each language's global story")
            // Links lead to the page's language; French has no `only`, so it leads to the English page.
            #expect(try facts("link", "Output/de/index.html") == [Collections.a("about/", "Über uns"), Collections.a("only/", "Nur Deutsch"), Collections.a("blog/", "Blog de")])
            #expect(try facts("link", "Output/fr/index.html") == [Collections.a("about/", "À propos"), Collections.a("../en/only/", "Only English"), Collections.a("blog/", "Blog fr")])
            #expect(result.stderr.contains("fr/home: body[1].link: warning: link to 'en-only': no version in this language: leads to 'en/only'"),
                    "\(result.stderr)")
            // Listings stay in their language's folder.
            #expect(try facts("child", "Output/de/blog/index.html") == [Collections.a("post/", "Post de")])
        }

        @Test("translations are the versions of a group, reciprocal, in the order of the languages, and in the sitemap")
        func translations() async throws {
            let workspace = try Self.workspace(try Self.space(), settings: Self.settings)
            #expect(try await Executable.run(["build"], in: workspace.url).status == 0)
            let pages = ["Output/index.html": "", "Output/de/index.html": "de/", "Output/fr/index.html": "fr/"]
            for (path, url) in pages {
                let translations = try Collections.facts("translation", path, in: workspace)
                #expect(translations.map { $0.split(separator: "|")[0] } == ["en", "de", "fr"], "\(path)")
                #expect(translations.filter { $0.hasSuffix("|true") }.count == 1)
                #expect(translations.contains { $0.hasSuffix("|https://example.com/\(url)|true") }, "\(path): \(translations)")
            }
            let only = try Collections.facts("translation", "Output/en/only/index.html", in: workspace)
            #expect(only.map { $0.split(separator: "|")[0] } == ["en", "de"], "no French version")
            let sitemap = try workspace.read("Output/sitemap.xml")
            #expect(sitemap.contains(#"<xhtml:link rel="alternate" hreflang="fr" href="https://example.com/fr/about/"/>"#))
            #expect(sitemap.contains(#"<xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/about/"/>"#))
            let check = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)")
        }

        @Test("a language without its folder's home fails naming the entry")
        func missingLanguage() async throws {
            let workspace = try Self.workspace(try Self.space(), settings: #"{"languages": ["en", "it"], "translation": "folder"}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("entry story 'it/home' not found"), "\(result.stderr)")
        }

        @Test("through the API, with alternates naming the versions, the build equals the folder's")
        func throughTheAPI() async throws {
            let workspace = try Self.workspace(try Self.space(), settings: Self.settings)
            let local = try await Executable.run(["build", "--output", "Local"], in: workspace.url)
            #expect(local.status == 0, "\(local.stderr)")
            let api = try FakeStoryblokAPI(folder: workspace.path("Content"), publicToken: "sk-test")
            let url = try api.start()
            defer { api.stop() }
            let online = try await Executable.run(
                ["build", "--api-url", url.absoluteString, "--output", "Online"], in: workspace.url, environment: ["STORYBLOK_TOKEN": "sk-test"])
            #expect(online.status == 0, "\(online.stderr)")
            #expect(try BuildEndToEndTests.allFiles(in: workspace.path("Online")) == (try BuildEndToEndTests.allFiles(in: workspace.path("Local"))))
        }
    }
}
