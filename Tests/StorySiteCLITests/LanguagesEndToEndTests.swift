import FakeStoryblokAPI
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Field-level translation (`"languages": ["en", "de", "fr"]`), driven through the built
    /// executable in temporary workspaces and checked in the files it writes.
    ///
    /// The theme prints what a page sees one fact a line (`lang=de`, `headline=Willkommen`,
    /// `translation=en|Home|<a href="../">en</a>|https://example.com/|false`), so a test reads a
    /// page's facts with ``CollectionsEndToEndTests/facts(_:_:in:)``; every href is an `<a>`, so
    /// `storysite check Output` proves they lead to files.
    @Suite("storysite build, languages by field, end to end")
    struct LanguagesEndToEndTests {
        typealias Collections = CollectionsEndToEndTests
        typealias Site = BuildEndToEndTests
        typealias Incremental = IncrementalBuildTests

        static let base = "https://example.com/"
        static let languages = ["en", "de", "fr"]

        // MARK: Workspaces

        /// The theme: the layout prints the page's language, URL, the global footer, the `latest`
        /// collection and the translations; the page template the story's translated and untranslated fields, its
        /// blocks, its listing, pagination, tags and feed.
        static let templates: [String: String] = [
            "layout.mustache": """
                <html lang="{{page.lang}}"><body>
                {{$main}}{{/main}}lang={{page.lang}}
                url={{page.url}}
                footer={{global.footer}}
                {{#collections.latest}}latest=<a href="{{href}}">{{name}}</a>|{{content.headline}}
                {{/collections.latest}}{{#page.translations}}translation={{lang}}|{{name}}|<a href="{{href}}">{{lang}}</a>|{{url}}|{{current}}
                {{/page.translations}}</body></html>

                """,
            "pages/default.mustache": """
                {{<layout}}{{$main}}name={{story.name}}
                storylang={{story.lang}}
                headline={{headline}}
                subtitle={{subtitle}}
                text={{text}}
                {{#body}}{{>*component}}{{/body}}{{#page.children}}child=<a href="{{href}}">{{name}}</a>|{{content.headline}}
                {{/page.children}}{{#page.pagination}}pagination={{current}}/{{total}}
                {{#prev}}prev=<a href="{{prev}}">prev</a>
                {{/prev}}{{#next}}next=<a href="{{next}}">next</a>
                {{/next}}{{/page.pagination}}{{#story.tags}}storytag={{name}}|<a href="{{href}}">tag</a>
                {{/story.tags}}{{#page.feed}}feed=<a href="{{page.feed}}">feed</a>
                {{/page.feed}}{{/main}}{{/layout}}
                """,
            "pages/tag.mustache": """
                {{<layout}}{{$main}}tag={{tag.name}}|{{tag.slug}}|{{tag.count}}
                {{#page.children}}child=<a href="{{href}}">{{name}}</a>|{{content.headline}}
                {{/page.children}}{{/main}}{{/layout}}
                """,
            "components/teaser.mustache": "link=<a href=\"{{link.href}}\">{{title}}</a>\n",
            "components/section.mustache": "{{#columns}}{{>*component}}{{/columns}}",
            "components/card.mustache": "card={{title}}\n",
        ]

        /// A story link as Storyblok saves it.
        static func link(_ uuid: String) -> [String: Any] {
            ["id": uuid, "linktype": "story", "fieldtype": "multilink", "cached_url": ""]
        }

        /// A richtext document of one paragraph.
        static func richtext(_ text: String) -> [String: Any] {
            ["type": "doc", "content": [["type": "paragraph", "content": [["type": "text", "text": text]]]]]
        }

        static func teaser(_ uid: String, _ title: String, to uuid: String, _ extra: [String: Any] = [:]) -> [String: Any] {
            var block: [String: Any] = ["component": "teaser", "_uid": uid, "title": title, "link": link(uuid)]
            block.merge(extra) { $1 }
            return block
        }

        /// One space in English, German and French:
        ///
        /// - `home`: a translated headline (de, fr), an untranslated subtitle (its translations
        ///   null in German, empty in French), a translated richtext field, teasers to `about`
        ///   (its title translated in German) and `blog/`, and a section whose card's title is
        ///   translated; a German name through `translated_slugs` (its path is ignored: a
        ///   language's home is at its code).
        /// - `about`: at `ueber-uns` in German, named `Über uns`; links to `home` and `blog/post-1`.
        /// - `global`: a translated footer.
        /// - `blog/`, with `blog/post-1` (at `blog/beitrag-1` in German, named `Beitrag 1`) and
        ///   `blog/post-2`, both tagged `Swift`.
        ///
        /// With `brokenGermanLinks`, `about`'s second teaser and a teaser of `blog/post-2` link to
        /// stories that do not exist, in German only. With `germanOnlyStory`, a third teaser of
        /// `about` links to `home`, and in German to `extra`, which nothing else links to.
        static func space(brokenGermanLinks: Bool = false, germanOnlyStory: Bool = false) throws -> [Collections.StoryFile] {
            var aboutBody = [teaser("t0", "Home", to: "home"), teaser("t1", "First post", to: "post-1")]
            var extra: [Collections.StoryFile] = []
            if germanOnlyStory {
                aboutBody.append(teaser("t2", "More", to: "home", ["link__i18n__de": link("extra")]))
                extra.append(try Collections.story("extra", uuid: "extra", name: "Extra",
                                                   raw: ["translated_slugs": [["path": "mehr", "name": "Mehr", "lang": "de"]]]))
            }
            var postBody: [[String: Any]] = []
            if brokenGermanLinks {
                aboutBody[1]["link__i18n__de"] = link("gone")
                postBody = [teaser("t0", "First post", to: "post-1", ["link__i18n__de": link("nope")])]
            }
            return [
                try Collections.story("home", uuid: "home", name: "Home", content: [
                    "headline": "Welcome", "headline__i18n__de": "Willkommen", "headline__i18n__fr": "Bienvenue",
                    "subtitle": "Same everywhere", "subtitle__i18n__de": NSNull(), "subtitle__i18n__fr": "",
                    "text": richtext("Hello world"), "text__i18n__de": richtext("Hallo Welt"), "text__i18n__fr": richtext("Bonjour le monde"),
                    "body": [
                        teaser("t0", "About us", to: "about", ["title__i18n__de": "Mehr über uns"]),
                        teaser("t1", "Blog", to: "blog"),
                        ["component": "section", "_uid": "s0", "columns": [
                            ["component": "card", "_uid": "c0", "title": "Card", "title__i18n__de": "Karte", "title__i18n__fr": "Carte"],
                        ]],
                    ],
                ], raw: ["translated_slugs": [["path": "startseite", "name": "Startseite", "lang": "de"]]]),
                try Collections.story("about", uuid: "about", name: "About", content: [
                    "headline": "About us", "headline__i18n__de": "Wer wir sind", "body": aboutBody,
                ], raw: ["translated_slugs": [["path": "ueber-uns", "name": "Über uns", "lang": "de"]]]),
                try Collections.story("global", uuid: "global", name: "Global", content: [
                    "component": "global", "footer": "Footer", "footer__i18n__de": "Fußzeile", "footer__i18n__fr": "Pied de page",
                ]),
                try Collections.story("blog/", uuid: "blog", name: "Blog"),
                try Collections.story(
                    "blog/post-1", uuid: "post-1", name: "Post 1", position: 1, firstPublished: "2024-01-01T10:00:00.000Z",
                    tags: ["Swift"], content: ["headline": "First", "headline__i18n__de": "Erster"],
                    raw: ["translated_slugs": [["path": "blog/beitrag-1", "name": "Beitrag 1", "lang": "de"]]]),
                try Collections.story(
                    "blog/post-2", uuid: "post-2", name: "Post 2", position: 2, firstPublished: "2024-02-01T10:00:00.000Z",
                    tags: ["Swift"], content: ["headline": "Second", "body": postBody]),
            ] + extra
        }

        static let settings = #"""
            {"languages": ["en", "de", "fr"], "translation": "field", "baseURL": "https://example.com/",
             "listings": {"blog/": {"perPage": 1, "feed": true}},
             "collections": {"latest": {"folder": "blog/", "sort": "position", "limit": 1}}}
            """#

        /// A working folder with this suite's theme, `stories` in `Content/` and `settings`.
        static func workspace(_ stories: [Collections.StoryFile], settings: String? = Self.settings) throws -> TemporaryFolder {
            let workspace = try TemporaryFolder(prefix: "storysite-languages")
            for (name, text) in templates { try workspace.write("Templates/" + name, text) }
            try FileManager.default.createDirectory(at: workspace.path("Content"), withIntermediateDirectories: true)
            for story in stories { try workspace.write("Content/" + story.path, story.json) }
            if let settings { try workspace.write("storysite.json", settings) }
            return workspace
        }

        /// The pages of the space in one language, under `prefix` (`""`, `de/`, `fr/`).
        static func pages(_ prefix: String, about: String, post1: String) -> [String] {
            [
                "index.html", "\(about)/index.html", "blog/index.html", "blog/page/2/index.html", "blog/\(post1)/index.html",
                "blog/post-2/index.html", "tags/swift/index.html",
            ].map { prefix + $0 }
        }

        static let englishPages = pages("", about: "about", post1: "post-1")
        static let germanPages = pages("de/", about: "ueber-uns", post1: "beitrag-1")
        static let frenchPages = pages("fr/", about: "about", post1: "post-1")

        // MARK: Reading pages

        /// One `translation=` line: `lang|name|<a href="…">lang</a>|url|current`.
        struct Translation: Equatable, CustomStringConvertible {
            var lang: String
            var name: String
            var href: String
            var url: String
            var current: Bool

            var description: String { "\(lang)|\(name)|\(href)|\(url)|\(current)" }
        }

        static func translations(_ path: String, in workspace: TemporaryFolder) throws -> [Translation] {
            try Collections.facts("translation", path, in: workspace).map { line in
                let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                try #require(parts.count == 5, "\(path): \(line)")
                let anchor = parts[2]
                let start = try #require(anchor.range(of: "href=\"")).upperBound
                let end = try #require(anchor[start...].firstIndex(of: "\""))
                return Translation(lang: parts[0], name: parts[1], href: String(anchor[start..<end]), url: parts[3], current: parts[4] == "true")
            }
        }

        /// What a page printed: its URL, language, name (a tag page's: its tag) and translations.
        struct Page {
            var path: String
            var url: String
            var lang: String
            var name: String
            var translations: [Translation]
        }

        static func page(_ path: String, in workspace: TemporaryFolder) throws -> Page {
            let file = "Output/" + path
            // A tag page's name is its tag's.
            let tag = try Collections.facts("tag", file, in: workspace).first.map { String($0.prefix { $0 != "|" }) }
            let name = try Collections.facts("name", file, in: workspace).first ?? tag ?? ""
            return Page(
                path: path, url: try #require(Collections.facts("url", file, in: workspace).first, "\(path) has no url"),
                lang: try Collections.facts("lang", file, in: workspace).first ?? "", name: name,
                translations: try translations(file, in: workspace))
        }

        /// Checks the translations of `paths` (files under `Output/`) against each other: in the
        /// order of the languages, `current` on the page itself alone, every `href` leading to its
        /// `url`, every version a page of the site in that language and with that name, and every
        /// version listing the same versions (so if A lists B, B lists A).
        static func expectReciprocalTranslations(_ paths: [String], in workspace: TemporaryFolder) throws {
            let pages = try paths.map { try page($0, in: workspace) }
            let byURL = Dictionary(uniqueKeysWithValues: pages.map { (base + $0.url, $0) })
            for page in pages {
                let own = base + page.url
                guard !page.translations.isEmpty else {
                    Issue.record("\(page.path) has no page.translations")
                    continue
                }
                #expect(page.translations.map(\.lang) == languages, "\(page.path): \(page.translations)")
                #expect(page.translations.filter(\.current).map(\.url) == [own], "\(page.path): current is the page itself: \(page.translations)")
                #expect(page.translations.first(where: \.current)?.lang == page.lang, "\(page.path)")
                let here = try #require(URL(string: own))
                for translation in page.translations {
                    #expect(URL(string: translation.href, relativeTo: here)?.absoluteString == translation.url,
                            "\(page.path): \(translation.href) does not lead to \(translation.url)")
                    guard let other = byURL[translation.url] else {
                        Issue.record("\(page.path): the translation \(translation) is no page of the site")
                        continue
                    }
                    #expect(other.lang == translation.lang, "\(page.path) → \(other.path)")
                    #expect(other.name == translation.name, "\(page.path) → \(other.path)")
                    #expect(other.translations.map(\.url) == page.translations.map(\.url),
                            "\(page.path) lists \(other.path), which lists \(other.translations.map(\.url))")
                }
            }
        }

        /// The number in the build summary's `(N written, …)`.
        static func writtenCount(_ stdout: String) -> Int? {
            guard let range = stdout.range(of: #"\((\d+) written"#, options: .regularExpression) else { return nil }
            return Int(stdout[range].dropFirst().prefix { $0.isNumber })
        }

        /// Each file under `Output/` whose path `include` accepts, with its modification date.
        static func modificationDates(in workspace: TemporaryFolder, where include: (String) -> Bool) throws -> [String: Date] {
            var dates: [String: Date] = [:]
            for path in try Collections.files(in: workspace.path("Output")) where include(path) {
                dates[path] = try Incremental.modified("Output/" + path, in: workspace)
            }
            return dates
        }

        // MARK: Pages

        @Test("every language's pages: paths, page.lang, translated and fallback fields, links, global story, listings, tags and feeds")
        func pagesInEveryLanguage() async throws {
            let workspace = try Self.workspace(try Self.space())
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(" 0 warnings"), "\(result.stdout)\(result.stderr)")

            let extras = ["404.html", "sitemap.xml", "robots.txt", "blog/feed.xml", "de/blog/feed.xml", "fr/blog/feed.xml"]
            #expect(try Collections.files(in: workspace.path("Output")) == Set(Self.englishPages + Self.germanPages + Self.frenchPages + extras))
            #expect(!workspace.exists("Output/de/startseite"), "a language's home is at its code")
            #expect(!workspace.exists("Output/global"), "the global story has no page")

            let facts = { (key: String, path: String) in try Collections.facts(key, "Output/" + path, in: workspace) }
            let a = Collections.a

            // page.lang and page.url, and story.lang, on every page.
            for (lang, pages) in [("en", Self.englishPages), ("de", Self.germanPages), ("fr", Self.frenchPages)] {
                for page in pages {
                    #expect(try facts("lang", page) == [lang], "\(page)")
                    #expect(try workspace.read("Output/" + page).hasPrefix("<html lang=\"\(lang)\">"), "\(page)")
                    #expect(try facts("url", page) == [String(page.dropLast("index.html".count))], "\(page)")
                    if !page.contains("tags/") { #expect(try facts("storylang", page) == [lang], "\(page)") }
                    let footer = ["en": "Footer", "de": "Fußzeile", "fr": "Pied de page"][lang]!
                    #expect(try facts("footer", page) == [footer], "\(page): each language's global story")
                }
            }

            // Home: translated, fallen back (null in German, empty in French), richtext, nested block.
            let homes: [(page: String, name: String, headline: String, text: String, card: String, links: [String])] = [
                ("index.html", "Home", "Welcome", "<p>Hello world</p>", "Card", [a("about/", "About us"), a("blog/", "Blog")]),
                ("de/index.html", "Startseite", "Willkommen", "<p>Hallo Welt</p>", "Karte", [a("ueber-uns/", "Mehr über uns"), a("blog/", "Blog")]),
                ("fr/index.html", "Home", "Bienvenue", "<p>Bonjour le monde</p>", "Carte", [a("about/", "About us"), a("blog/", "Blog")]),
            ]
            for home in homes {
                #expect(try facts("name", home.page) == [home.name], "\(home.page)")
                #expect(try facts("headline", home.page) == [home.headline], "\(home.page)")
                #expect(try facts("subtitle", home.page) == ["Same everywhere"], "\(home.page): an untranslated field falls back")
                #expect(try facts("text", home.page) == [home.text], "\(home.page)")
                #expect(try facts("card", home.page) == [home.card], "\(home.page): a nested block's field")
                #expect(try facts("link", home.page) == home.links, "\(home.page)")
            }

            // About: the German path and name; links within the page's language.
            #expect(try facts("name", "about/index.html") == ["About"])
            #expect(try facts("name", "de/ueber-uns/index.html") == ["Über uns"])
            #expect(try facts("name", "fr/about/index.html") == ["About"], "no French name: the default")
            #expect(try facts("headline", "about/index.html") == ["About us"])
            #expect(try facts("headline", "de/ueber-uns/index.html") == ["Wer wir sind"])
            #expect(try facts("headline", "fr/about/index.html") == ["About us"])
            #expect(try facts("link", "about/index.html") == [a("../", "Home"), a("../blog/post-1/", "First post")])
            #expect(try facts("link", "de/ueber-uns/index.html") == [a("../", "Home"), a("../blog/beitrag-1/", "First post")])
            #expect(try facts("link", "fr/about/index.html") == [a("../", "Home"), a("../blog/post-1/", "First post")])

            // The blog: one post a page, in each language's paths and names.
            for (prefix, post1, name1, headline1) in [
                ("", "post-1", "Post 1", "First"), ("de/", "beitrag-1", "Beitrag 1", "Erster"), ("fr/", "post-1", "Post 1", "First"),
            ] {
                let first = prefix + "blog/index.html", second = prefix + "blog/page/2/index.html"
                #expect(try facts("child", first) == [a("\(post1)/", name1) + "|" + headline1], "\(first)")
                #expect(try facts("pagination", first) == ["1/2"], "\(first)")
                #expect(try facts("next", first) == [a("page/2/", "next")], "\(first)")
                #expect(try facts("feed", first) == [a("feed.xml", "feed")], "\(first)")
                #expect(try facts("child", second) == [a("../../post-2/", "Post 2") + "|Second"], "\(second)")
                #expect(try facts("pagination", second) == ["2/2"], "\(second)")
                #expect(try facts("prev", second) == [a("../../", "prev")], "\(second)")
                #expect(try facts("name", prefix + "blog/\(post1)/index.html") == [name1])
                // The tag, its page in the language, listing the language's pages.
                #expect(try facts("storytag", prefix + "blog/post-2/index.html") == ["Swift|\(a("../../tags/swift/", "tag"))"])
                #expect(try facts("storytag", prefix + "blog/\(post1)/index.html") == ["Swift|\(a("../../tags/swift/", "tag"))"])
                #expect(try facts("tag", prefix + "tags/swift/index.html") == ["Swift|swift|2"])
                #expect(try facts("child", prefix + "tags/swift/index.html")
                    == [a("../../blog/\(post1)/", name1) + "|" + headline1, a("../../blog/post-2/", "Post 2") + "|Second"])
                // Each language's collection.
                #expect(try facts("latest", prefix + "index.html") == [a("blog/\(post1)/", name1) + "|" + headline1])
                #expect(try facts("latest", prefix + "blog/page/2/index.html") == [a("../../\(post1)/", name1) + "|" + headline1])
                // The feed lists the language's pages, absolute.
                let feed = try workspace.read("Output/\(prefix)blog/feed.xml")
                #expect(feed.contains(#"<link rel="self" type="application/atom+xml" href="https://example.com/\#(prefix)blog/feed.xml"/>"#), "\(feed)")
                let entries = feed.components(separatedBy: "<entry>").dropFirst().compactMap { entry in
                    entry.range(of: #"https://example\.com/[a-z0-9/-]+"#, options: .regularExpression).map { String(entry[$0]) }
                }
                #expect(entries == ["https://example.com/\(prefix)blog/\(post1)/", "https://example.com/\(prefix)blog/post-2/"], "\(feed)")
            }
            #expect(try facts("headline", "de/blog/beitrag-1/index.html") == ["Erster"])
            #expect(try facts("headline", "fr/blog/post-1/index.html") == ["First"])

            // Translations of every story and listing page: reciprocal, in the languages' order.
            let translated = (Self.englishPages + Self.germanPages + Self.frenchPages).filter { !$0.contains("tags/") }
            try Self.expectReciprocalTranslations(translated, in: workspace)
            #expect(try Self.translations("Output/de/index.html", in: workspace).map(\.description) == [
                "en|Home|../|https://example.com/|false", "de|Startseite|./|https://example.com/de/|true", "fr|Home|../fr/|https://example.com/fr/|false",
            ])
            #expect(try Self.translations("Output/de/ueber-uns/index.html", in: workspace).map(\.description) == [
                "en|About|../../about/|https://example.com/about/|false", "de|Über uns|./|https://example.com/de/ueber-uns/|true",
                "fr|About|../../fr/about/|https://example.com/fr/about/|false",
            ])
            #expect(try Self.translations("Output/fr/blog/page/2/index.html", in: workspace).map(\.url) == [
                "https://example.com/blog/page/2/", "https://example.com/de/blog/page/2/", "https://example.com/fr/blog/page/2/",
            ], "page N of a listing translates page N")

            let check = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            let contentCheck = try await Executable.run(["check"], in: workspace.url)
            #expect(contentCheck.status == 0, "\(contentCheck.stdout)\(contentCheck.stderr)")

            // Without a base URL a translation has no absolute url.
            try workspace.write("storysite.json", Self.settings.replacingOccurrences(of: #""baseURL": "https://example.com/","#, with: ""))
            let noBase = try await Executable.run(["build", "--output", "NoBase"], in: workspace.url)
            #expect(noBase.status == 0, "\(noBase.stderr)")
            #expect(try Collections.facts("translation", "NoBase/de/ueber-uns/index.html", in: workspace) == [
                "en|About|<a href=\"../../about/\">en</a>||false", "de|Über uns|<a href=\"./\">de</a>||true",
                "fr|About|<a href=\"../../fr/about/\">fr</a>||false",
            ])
        }

        @Test("a default-language story on the path of another language's page is an error naming both, and nothing is written")
        func pathTakenAcrossLanguages() async throws {
            let workspace = try Self.workspace([
                try Collections.story("home", uuid: "home", name: "Home", linksTo: ["about", "clash"]),
                try Collections.story("about", uuid: "about", name: "About",
                                      raw: ["translated_slugs": [["path": "ueber-uns", "name": "Über uns", "lang": "de"]]]),
                try Collections.story("de/ueber-uns", uuid: "clash", name: "Clash"),
            ], settings: #"{"languages": ["en", "de"], "translation": "field"}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains(
                "de/ueber-uns/index.html: error: two pages map to this file: 'de/ueber-uns' (en) and 'about' (de); rename one of them"),
                "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        @Test("a tag's pages in the three languages translate each other, in page.translations and in the sitemap")
        func tagPagesTranslate() async throws {
            let workspace = try Self.workspace(try Self.space())
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            try Self.expectReciprocalTranslations(["tags/swift/index.html", "de/tags/swift/index.html", "fr/tags/swift/index.html"], in: workspace)
            let sitemap = try Self.sitemap(in: workspace)
            for loc in ["tags/swift/", "de/tags/swift/", "fr/tags/swift/"].map({ Self.base + $0 }) {
                #expect(sitemap[loc]?.map(\.hreflang) == Self.languages + ["x-default"], "\(loc): \(sitemap[loc] ?? [])")
            }
        }

        @Test("a story only a German translation links to has a German page alone, and is no orphan")
        func germanOnlyStory() async throws {
            let workspace = try Self.workspace(try Self.space(germanOnlyStory: true))
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(workspace.exists("Output/de/mehr/index.html"))
            #expect(!workspace.exists("Output/extra") && !workspace.exists("Output/fr/extra"), "no link reaches it in English or French")
            #expect(try Collections.facts("link", "Output/de/ueber-uns/index.html", in: workspace).last == Collections.a("../mehr/", "More"))
            #expect(try Collections.facts("link", "Output/about/index.html", in: workspace).last == Collections.a("../", "More"))
            #expect(try Self.translations("Output/de/mehr/index.html", in: workspace).map(\.description)
                == ["de|Mehr|./|https://example.com/de/mehr/|true"])
            // The site reaches all seven stories (the global story too): none is an orphan.
            #expect(Collections.warnings(result.stderr).isEmpty, "\(result.stderr)")
            #expect(result.stdout.contains(" from 7 stories "), "\(result.stdout)")
            let check = try await Executable.run(["check", "Output"], in: workspace.url)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }

        // MARK: Sitemap

        /// One `xhtml:link rel="alternate"` of a sitemap entry.
        struct Alternate: Equatable, CustomStringConvertible {
            var hreflang: String
            var href: String

            var description: String { "\(hreflang) \(href)" }
        }

        /// Reads `sitemap.xml` with namespaces: each `<loc>`'s `xhtml:link` alternates.
        final class SitemapReader: NSObject, XMLParserDelegate {
            static let sitemapNamespace = "http://www.sitemaps.org/schemas/sitemap/0.9"
            static let xhtmlNamespace = "http://www.w3.org/1999/xhtml"

            var entries: [(loc: String, alternates: [Alternate])] = []
            var problems: [String] = []
            private var text = ""
            private var inLoc = false

            func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
                switch (namespaceURI, elementName) {
                case (Self.sitemapNamespace, "url"): entries.append((loc: "", alternates: []))
                case (Self.sitemapNamespace, "loc"): inLoc = true; text = ""
                case (Self.xhtmlNamespace, "link"):
                    guard !entries.isEmpty, attributes["rel"] == "alternate", let hreflang = attributes["hreflang"], let href = attributes["href"] else {
                        problems.append("an xhtml:link outside <url> or without rel, hreflang or href: \(attributes)")
                        return
                    }
                    entries[entries.count - 1].alternates.append(Alternate(hreflang: hreflang, href: href))
                case (Self.sitemapNamespace, _): break
                default: problems.append("an element of another namespace: \(namespaceURI ?? "none") \(elementName)")
                }
            }

            func parser(_ parser: XMLParser, foundCharacters string: String) {
                if inLoc { text += string }
            }

            func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
                if namespaceURI == Self.sitemapNamespace, elementName == "loc", !entries.isEmpty {
                    entries[entries.count - 1].loc = text
                    inLoc = false
                }
            }
        }

        /// `Output/sitemap.xml`, parsed: each page's URL and its alternates.
        static func sitemap(in workspace: TemporaryFolder) throws -> [String: [Alternate]] {
            let parser = XMLParser(data: try Data(contentsOf: workspace.path("Output/sitemap.xml")))
            parser.shouldProcessNamespaces = true
            let reader = SitemapReader()
            parser.delegate = reader
            #expect(parser.parse(), "sitemap.xml does not parse: \(String(describing: parser.parserError))")
            #expect(reader.problems.isEmpty, "\(reader.problems)")
            let locs = reader.entries.map(\.loc)
            #expect(Set(locs).count == locs.count, "a loc listed twice: \(locs)")
            return Dictionary(reader.entries.map { ($0.loc, $0.alternates) }, uniquingKeysWith: { first, _ in first })
        }

        @Test("the sitemap lists every page with absolute, reciprocal hreflang alternates for the three languages and x-default")
        func sitemapAlternates() async throws {
            let workspace = try Self.workspace(try Self.space())
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            let sitemap = try Self.sitemap(in: workspace)
            let pages = Self.englishPages + Self.germanPages + Self.frenchPages
            #expect(Set(sitemap.keys) == Set(pages.map { Self.base + $0.dropLast("index.html".count) }), "\(sitemap.keys.sorted())")

            // Tag pages: see tagPagesTranslate.
            for (loc, alternates) in sitemap where !loc.contains("/tags/") {
                #expect(alternates.map(\.hreflang) == Self.languages + ["x-default"], "\(loc): \(alternates)")
                #expect(alternates.allSatisfy { $0.href.hasPrefix(Self.base) && URL(string: $0.href)?.scheme == "https" }, "\(loc): \(alternates)")
                let lang = loc.hasPrefix(Self.base + "de/") ? "de" : loc.hasPrefix(Self.base + "fr/") ? "fr" : "en"
                #expect(alternates.first { $0.hreflang == lang }?.href == loc, "\(loc) lists itself under its language: \(alternates)")
                #expect(alternates.last?.href == alternates.first?.href, "\(loc): x-default is the English page: \(alternates)")
                for alternate in alternates {
                    guard let other = sitemap[alternate.href] else {
                        Issue.record("\(loc): the alternate \(alternate) is not in the sitemap")
                        continue
                    }
                    #expect(other == alternates, "\(loc) lists \(alternate.href), whose alternates are \(other)")
                }
            }
            #expect(sitemap[Self.base + "de/ueber-uns/"] == [
                Alternate(hreflang: "en", href: "https://example.com/about/"), Alternate(hreflang: "de", href: "https://example.com/de/ueber-uns/"),
                Alternate(hreflang: "fr", href: "https://example.com/fr/about/"), Alternate(hreflang: "x-default", href: "https://example.com/about/"),
            ])
            #expect(!(try workspace.read("Output/sitemap.xml")).contains("feed.xml"))
        }

        // MARK: Without languages

        @Test("without languages a page has neither page.lang nor page.translations, and the output is what it was")
        func withoutLanguages() async throws {
            let workspace = try TemporaryFolder(prefix: "storysite-languages")
            try workspace.write("Templates/layout.mustache", "<html><body>\n{{$main}}{{/main}}</body></html>\n")
            try workspace.write(
                "Templates/pages/default.mustache",
                "{{<layout}}{{$main}}[{{page.lang}}][{{#page.translations}}x{{/page.translations}}]|{{story.lang}}|{{story.name}}|{{headline}}|{{headline__i18n__de}}|{{#body}}{{>*component}}{{/body}}\n{{/main}}{{/layout}}")
            try workspace.write("Templates/components/teaser.mustache", "<a href=\"{{link.href}}\">{{title}}</a>")
            for story in [
                try Collections.story("home", uuid: "home", name: "Home", linksTo: ["about"],
                                      content: ["headline": "Hello", "headline__i18n__de": "Hallo"], raw: ["lang": "default"]),
                try Collections.story("about", uuid: "about", name: "About",
                                      raw: ["translated_slugs": [["path": "ueber-uns", "name": "Über uns", "lang": "de"]]]),
            ] {
                try workspace.write("Content/" + story.path, story.json)
            }
            try workspace.write("storysite.json", #"{"baseURL": "https://example.com/"}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")

            #expect(try Collections.files(in: workspace.path("Output")) == ["404.html", "index.html", "about/index.html", "sitemap.xml", "robots.txt"])
            // Fields are as written: no translation is applied, `__i18n__` keys are ordinary fields.
            #expect(try workspace.read("Output/index.html") == "<html><body>\n[][]|default|Home|Hello|Hallo|<a href=\"about/\">about</a>\n</body></html>\n")
            #expect(try workspace.read("Output/about/index.html") == "<html><body>\n[][]||About|||\n</body></html>\n")
            #expect(try workspace.read("Output/sitemap.xml") == """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                  <url>
                    <loc>https://example.com/</loc>
                  </url>
                  <url>
                    <loc>https://example.com/about/</loc>
                  </url>
                </urlset>

                """)

            // `translation` alone (the default) changes nothing either.
            try workspace.write("storysite.json", #"{"baseURL": "https://example.com/", "translation": "field"}"#)
            let field = try await Executable.run(["build", "--output", "Field"], in: workspace.url)
            #expect(field.status == 0, "\(field.stderr)")
            #expect(try Site.allFiles(in: workspace.path("Field")) == (try Site.allFiles(in: workspace.path("Output"))))
        }

        // MARK: The API

        @Test("through the fake API, which answers language= with translated stories, the build equals the folder's byte for byte")
        func throughTheAPI() async throws {
            let workspace = try Self.workspace(try Self.space())
            let local = try await Executable.run(["build", "--output", "Local"], in: workspace.url)
            #expect(local.status == 0, "\(local.stderr)")
            let token = StoryblokEndToEndTests.token
            let api = try FakeStoryblokAPI(folder: workspace.path("Content"), publicToken: token)
            let url = try api.start()
            defer { api.stop() }
            let online = try await Executable.run(
                ["build", "--api-url", url.absoluteString, "--output", "Online"], in: workspace.url, environment: ["STORYBLOK_TOKEN": token])
            #expect(online.status == 0, "\(online.stderr)")
            #expect(online.stdout.contains(" 0 warnings"), "\(online.stdout)\(online.stderr)")
            StoryblokEndToEndTests.assertNoToken(online)
            let languagesAsked = Set(api.requests(to: "stories").compactMap { $0.query["language"] })
            #expect(languagesAsked.isSuperset(of: ["de", "fr"]), "each language is read from the API: \(languagesAsked)")

            try Self.expectSameFiles(workspace, "Local", "Online")

            // What pull writes (every language folded back into __i18n__ fields) builds the same site.
            let pull = try await Executable.run(
                ["pull", "--api-url", url.absoluteString, "--to", "Pulled"], in: workspace.url, environment: ["STORYBLOK_TOKEN": token])
            #expect(pull.status == 0, "\(pull.stderr)")
            let offline = try await Executable.run(["build", "--source", "Pulled", "--output", "Offline"], in: workspace.url)
            #expect(offline.status == 0, "\(offline.stderr)")
            try Self.expectSameFiles(workspace, "Local", "Offline")
        }

        /// Expects the folders `expected` and `actual` of `workspace` to hold the same files, byte
        /// for byte (the build cache left out), and shows the first lines that differ.
        static func expectSameFiles(_ workspace: TemporaryFolder, _ expected: String, _ actual: String,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws {
            let expectedFiles = try Site.allFiles(in: workspace.path(expected))
            let actualFiles = try Site.allFiles(in: workspace.path(actual))
            #expect(actualFiles.keys.sorted() == expectedFiles.keys.sorted(), sourceLocation: sourceLocation)
            for (path, data) in expectedFiles.sorted(by: { $0.key < $1.key }) where actualFiles[path] != nil && actualFiles[path] != data {
                let lines = { (data: Data) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) }
                let (want, got) = (lines(data), lines(actualFiles[path]!))
                let index = (0..<min(want.count, got.count)).first { want[$0] != got[$0] } ?? min(want.count, got.count)
                let wanted = index < want.count ? String(want[index]) : "(end)"
                let found = index < got.count ? String(got[index]) : "(end)"
                Issue.record("\(path) differs in \(actual) from \(expected) at line \(index + 1): \(wanted) ≠ \(found)", sourceLocation: sourceLocation)
            }
        }

        // MARK: Incremental builds

        @Test("one German translation changed: only German pages are written, the rebuild equals a full build, and then nothing is written")
        func incrementalGermanEdit() async throws {
            let workspace = try Self.workspace(try Self.space())
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            let notGerman = { (path: String) in !path.hasPrefix("de/") }
            let before = try Self.modificationDates(in: workspace, where: notGerman)
            #expect(before.count == Self.englishPages.count + Self.frenchPages.count + 5, "\(before.keys.sorted())")

            // A German field of one story: its German page alone changes.
            try Incremental.replace(#""headline__i18n__de" : "Wer wir sind""#, with: #""headline__i18n__de" : "Wer wir wirklich sind""#,
                                    in: "Content/about.json", of: workspace)
            let edited = try await Executable.run(["build"], in: workspace.url)
            #expect(edited.status == 0, "\(edited.stderr)")
            #expect(try Collections.facts("headline", "Output/de/ueber-uns/index.html", in: workspace) == ["Wer wir wirklich sind"])
            let written = Self.writtenCount(edited.stdout)
            #expect(written == 1, "only de/ueber-uns/index.html: \(edited.stdout)")
            // Each language's pages are rendered in turn (en, de, fr): English and French not at all.
            let rendered = edited.stderr.split(separator: "\n").filter { $0.hasPrefix("Rendered ") }.map { String($0.prefix { $0 != "," }) }
            #expect(rendered.count == 3 && rendered[0] == "Rendered 0 pages" && rendered[1] != "Rendered 0 pages" && rendered[2] == "Rendered 0 pages",
                    "\(edited.stderr)")
            #expect(try Self.modificationDates(in: workspace, where: notGerman) == before, "English and French files keep their times")
            try await Incremental.expectSameAsFullBuild(workspace, "a German headline edit")

            // The German footer of the global story: every German page, and nothing else.
            let germanHTML = try Collections.files(in: workspace.path("Output")).filter { $0.hasPrefix("de/") && $0.hasSuffix(".html") }
            try Incremental.replace(#""footer__i18n__de" : "Fußzeile""#, with: #""footer__i18n__de" : "Fußnote""#,
                                    in: "Content/global.json", of: workspace)
            let footer = try await Executable.run(["build"], in: workspace.url)
            #expect(footer.status == 0, "\(footer.stderr)")
            #expect(Self.writtenCount(footer.stdout) == germanHTML.count, "\(germanHTML.sorted()): \(footer.stdout)")
            #expect(try Self.modificationDates(in: workspace, where: notGerman) == before, "English and French files keep their times")
            for page in germanHTML { #expect(try Collections.facts("footer", "Output/" + page, in: workspace) == ["Fußnote"], "\(page)") }
            try await Incremental.expectSameAsFullBuild(workspace, "a German footer edit")

            let unchanged = try await Executable.run(["build"], in: workspace.url)
            #expect(unchanged.status == 0, "\(unchanged.stderr)")
            #expect(unchanged.stdout.contains("(0 written, "), "\(unchanged.stdout)")
        }

        // MARK: Settings and check

        @Test("bad language settings exit 64 naming the key", arguments: [
            (#"{"languages": []}"#,
             #"storysite.json: error: 'languages' must be a non-empty array of language codes, the default first, such as ["en", "de"]"#),
            (#"{"languages": ["en", "de", "en"]}"#, "storysite.json: error: 'languages' 'en' is listed twice"),
            (#"{"languages": ["en", "Deutsch"]}"#,
             "storysite.json: error: 'languages' 'Deutsch' is not a language code; use Storyblok's codes, such as de, de-at or pt-br"),
            (#"{"languages": ["en", "de"], "translation": "space"}"#, #"storysite.json: error: 'translation' must be "field" or "folder""#),
        ])
        func badSettings(settings: String, message: String) async throws {
            let workspace = try Self.workspace(try Self.space(), settings: settings)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        @Test("a link broken only in German is reported by check and build under the de/ prefix, and nowhere else")
        func brokenGermanLink() async throws {
            let workspace = try Self.workspace(try Self.space(brokenGermanLinks: true))
            let build = try await Executable.run(["build"], in: workspace.url)
            #expect(build.status == 0, "\(build.stderr)")
            #expect(build.stderr.contains("de/blog/post-2: body[0].link: warning: broken story link to 'nope': no story has this UUID"), "\(build.stderr)")
            #expect(Collections.warnings(build.stderr).count == 2, "\(build.stderr)")

            let text = try await Executable.run(["check"], in: workspace.url)
            #expect(text.status == 1, "\(text.stdout)\(text.stderr)")
            #expect(text.stdout.contains("de/blog/post-2\n  body[0].link: broken: \"nope\": no story has this UUID\n"), "\(text.stdout)")

            let json = try await Executable.run(["check", "--format", "json"], in: workspace.url)
            #expect(json.status == 1)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
            let broken = try #require(report["broken"] as? [[String: Any]])
            let storyLinks = broken.filter { $0["field"] != nil }.map { "\($0["source"] ?? "")|\($0["field"] ?? "")|\($0["target"] ?? "")" }
            // Stories are named by language and full_slug, as CheckCommand does (`de/about`).
            #expect(storyLinks == ["de/about|body[1].link|gone", "de/blog/post-2|body[0].link|nope"], "\(json.stdout)")
        }
    }
}
