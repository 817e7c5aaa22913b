import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Rebuilds reuse the build cache in `Output/.storysite/`, and always give what a full build gives.
    @Suite("storysite build, incremental")
    struct IncrementalBuildTests {
        typealias Site = BuildEndToEndTests

        /// One edit of the demo workspace, named for messages.
        struct Change: Sendable, CustomStringConvertible {
            var description: String
            var apply: @Sendable (TemporaryFolder) throws -> Void
        }

        static func replace(_ old: String, with new: String, in path: String, of workspace: TemporaryFolder) throws {
            let text = try workspace.read(path)
            let edited = text.replacingOccurrences(of: old, with: new)
            guard edited != text else { throw CocoaError(.fileReadCorruptFile) }
            try workspace.write(path, edited)
        }

        static let changes: [Change] = [
            Change(description: "text edit") { workspace in
                try replace("Our sync engine, which I descr", with: "Our sync engine, edited, which I descr",
                            in: "Content/blog/how-we-test-sync-on-a-train.json", of: workspace)
            },
            Change(description: "name change") { workspace in
                try replace("\"name\": \"Tom Hadley\"", with: "\"name\": \"Thomas Hadley\"", in: "Content/team/tom-hadley.json", of: workspace)
            },
            Change(description: "slug rename") { workspace in
                try replace("\"slug\": \"tom-hadley\"", with: "\"slug\": \"thomas-hadley\"", in: "Content/team/tom-hadley.json", of: workspace)
                try replace("\"full_slug\": \"team/tom-hadley\"", with: "\"full_slug\": \"team/thomas-hadley\"",
                            in: "Content/team/tom-hadley.json", of: workspace)
            },
            Change(description: "deleted story") { workspace in
                try FileManager.default.removeItem(at: workspace.path("Content/blog/barcode-scanners-we-recommend.json"))
            },
            Change(description: "template edit") { workspace in
                let path = "Templates/layout.mustache"
                try workspace.write(path, try workspace.read(path).replacingOccurrences(of: "</body>", with: "<!-- edited --></body>"))
            },
        ]

        static func modified(_ path: String, in workspace: TemporaryFolder) throws -> Date? {
            try FileManager.default.attributesOfItem(atPath: workspace.path(path).path)[.modificationDate] as? Date
        }

        /// Builds into `Fresh/` with no cache and expects `Output/` to hold the same files, byte for byte.
        static func expectSameAsFullBuild(_ workspace: TemporaryFolder, _ change: String) async throws {
            try? FileManager.default.removeItem(at: workspace.path("Fresh"))
            let fresh = try await Executable.run(["build", "--output", "Fresh"], in: workspace.url)
            #expect(fresh.status == 0, "\(fresh.stderr)")
            let incremental = try Site.allFiles(in: workspace.path("Output"))
            let full = try Site.allFiles(in: workspace.path("Fresh"))
            #expect(incremental.keys.sorted() == full.keys.sorted(), "after \(change)")
            for (path, data) in full where incremental[path] != data {
                Issue.record("after \(change): \(path) differs from a full build")
            }
        }

        /// The names of the phases in a `--timings` report (what follows `Timings:`).
        static func phaseNames(in report: some StringProtocol) -> [String] {
            report.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0] }
        }

        /// The phases `storysite build --timings` went through in `workspace`, after expecting it to succeed.
        static func phasesOfBuild(in workspace: TemporaryFolder) async throws -> [String] {
            let result = try await Executable.run(["build", "--timings"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            return phaseNames(in: result.stderr.components(separatedBy: "Timings:").last ?? "")
        }

        @Test("a rebuild with nothing changed writes nothing and prints the same warnings")
        func noChange() async throws {
            let workspace = try Site.demoWorkspace()
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            let page = try Self.modified("Output/privacy/index.html", in: workspace)
            let second = try await Executable.run(["build"], in: workspace.url)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("(0 written, "), "\(second.stdout)")
            #expect(second.stdout.contains(" 0 removed)"), "\(second.stdout)")
            let warnings = { (text: String) in text.split(separator: "\n").filter { $0.contains(": warning:") } }
            #expect(warnings(second.stderr) == warnings(first.stderr))
            #expect(try Self.modified("Output/privacy/index.html", in: workspace) == page)
        }

        @Test("each kind of change rebuilds to exactly what a full build writes, leaving unrelated pages alone")
        func changesMatchFullBuild() async throws {
            let workspace = try Site.demoWorkspace()
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            for change in Self.changes {
                let unrelated = try Self.modified("Output/privacy/index.html", in: workspace)
                try change.apply(workspace)
                let rebuilt = try await Executable.run(["build"], in: workspace.url)
                #expect(rebuilt.status == 0, "after \(change): \(rebuilt.stderr)")
                #expect(!rebuilt.stdout.contains("(0 written,"), "after \(change): \(rebuilt.stdout)")
                if change.description != "template edit" {
                    #expect(try Self.modified("Output/privacy/index.html", in: workspace) == unrelated, "after \(change)")
                }
                try await Self.expectSameAsFullBuild(workspace, change.description)
            }
        }

        @Test("a text edit renders only the pages that depend on the story")
        func textEditRendersFewPages() async throws {
            let workspace = try Site.demoWorkspace()
            _ = try await Executable.run(["build"], in: workspace.url)
            // A doc page: the docs that link to it or relate to it (previous, next) show it; no
            // collection does. (A post the home page's latest posts relate to is shown, two
            // levels down, on every page that sees the collection: every page.)
            try Self.replace(#""level": "reference""#, with: #""level": "reference", "reviewer": "Mira""#,
                             in: "Content/docs/troubleshooting.json", of: workspace)
            let rebuilt = try await Executable.run(["build"], in: workspace.url)
            #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
            let rendered = rebuilt.stderr.split(separator: "\n").first { $0.contains("Rendered ") }.map(String.init) ?? ""
            #expect(rendered.contains("kept"), "\(rebuilt.stderr)")
            let count = Int(rendered.split(separator: " ").drop { $0 != "Rendered" }.dropFirst().first ?? "") ?? -1
            #expect((1...10).contains(count), "\(rendered)")
        }

        /// The inode of the file at `path`: the same file when it is unchanged, a new one when written again.
        static func inode(_ path: String, in workspace: TemporaryFolder) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: workspace.path(path).path)[.systemFileNumber] as? Int
        }

        @Test("a template edit renders every page again but writes only those whose bytes changed, into a new folder once they are many; the others keep their files")
        func templateEditKeepsUnchangedFiles() async throws {
            let workspace = try Site.demoWorkspace()
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            let withHero = "Output/privacy/index.html", withoutHero = "Output/team/mira-okafor/index.html"
            let before = (try Self.inode(withHero, in: workspace), try Self.inode(withoutHero, in: workspace))

            // Seven stories in two languages show a hero: more pages than a tenth of the 121 files,
            // so the folder is replaced, the pages without a hero linked into it as they were.
            try Self.replace("<section", with: "<section data-edited", in: "Templates/components/hero.mustache", of: workspace)
            let rebuilt = try await Executable.run(["build"], in: workspace.url)
            #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
            let written = rebuilt.stdout.split(separator: "(").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
            #expect((13..<80).contains(written), "\(rebuilt.stdout)")
            #expect(try Self.inode(withHero, in: workspace) != before.0)
            #expect(try Self.inode(withoutHero, in: workspace) == before.1)
            #expect(try workspace.read(withHero).contains("data-edited"))
            try await Self.expectSameAsFullBuild(workspace, "hero template edit")

            // A comment changes no page: every page is rendered, and every file stays.
            let kept = (try Self.inode(withHero, in: workspace), try Self.inode(withoutHero, in: workspace))
            try Self.replace("</body>", with: "{{! a note }}</body>", in: "Templates/layout.mustache", of: workspace)
            let commented = try await Executable.run(["build"], in: workspace.url)
            #expect(commented.status == 0, "\(commented.stderr)")
            #expect(commented.stdout.contains("(0 written, "), "\(commented.stdout)")
            #expect(!commented.stderr.contains("kept"), "every page is rendered again: \(commented.stderr)")
            #expect(try Self.inode(withHero, in: workspace) == kept.0 && Self.inode(withoutHero, in: workspace) == kept.1)
        }

        @Test("the sitemap is kept while no page's address or date changes, made again when one does or when its file was edited")
        func sitemapKeptUntilChanged() async throws {
            let workspace = try Site.demoWorkspace()
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            let sitemap = "Output/sitemap.xml"
            let written = try Self.inode(sitemap, in: workspace)
            try Self.changes[0].apply(workspace)
            let textEdit = try await Executable.run(["build"], in: workspace.url)
            #expect(textEdit.status == 0, "\(textEdit.stderr)")
            #expect(try Self.inode(sitemap, in: workspace) == written)
            try await Self.expectSameAsFullBuild(workspace, "a text edit")

            try Self.replace(#""published_at": "2025-04-08T08:00:00.000Z""#, with: #""published_at": "2025-04-09T08:00:00.000Z""#,
                             in: "Content/blog/how-we-test-sync-on-a-train.json", of: workspace)
            let dateEdit = try await Executable.run(["build"], in: workspace.url)
            #expect(dateEdit.status == 0, "\(dateEdit.stderr)")
            #expect(try workspace.read(sitemap).contains("2025-04-09T08:00:00"))
            try await Self.expectSameAsFullBuild(workspace, "a date edit")

            // A sitemap edited by hand is not intact: made again, though its entries are the same.
            try workspace.write(sitemap, try workspace.read(sitemap).replacingOccurrences(of: "<urlset", with: "<!-- mine --><urlset"))
            try Self.replace("Our sync engine, edited,", with: "Our sync engine, edited twice,",
                             in: "Content/blog/how-we-test-sync-on-a-train.json", of: workspace)
            let handEdit = try await Executable.run(["build"], in: workspace.url)
            #expect(handEdit.status == 0, "\(handEdit.stderr)")
            #expect(try !workspace.read(sitemap).contains("mine"))
            try await Self.expectSameAsFullBuild(workspace, "a hand edit of the sitemap")
        }

        @Test("a corrupt or missing cache just means a full build")
        func corruptCache() async throws {
            let workspace = try Site.demoWorkspace()
            _ = try await Executable.run(["build"], in: workspace.url)
            try Self.changes[0].apply(workspace)
            try workspace.write("Output/.storysite/cache.json", "{ not json")
            let corrupt = try await Executable.run(["build"], in: workspace.url)
            #expect(corrupt.status == 0, "\(corrupt.stderr)")
            try await Self.expectSameAsFullBuild(workspace, "a corrupt cache")
            try FileManager.default.removeItem(at: workspace.path("Output/.storysite/cache.json"))
            let missing = try await Executable.run(["build"], in: workspace.url)
            #expect(missing.status == 0, "\(missing.stderr)")
            #expect(missing.stdout.contains("(0 written,"), "\(missing.stdout)")
            try await Self.expectSameAsFullBuild(workspace, "a missing cache")

            // Without readable page records every page renders again; the summary file alone
            // still lets an unchanged build stop early.
            try Self.changes[1].apply(workspace)
            try workspace.write("Output/.storysite/pages", "[")
            let noRecords = try await Executable.run(["build"], in: workspace.url)
            #expect(noRecords.status == 0, "\(noRecords.stderr)")
            #expect(!noRecords.stderr.contains("kept"), "\(noRecords.stderr)")
            try await Self.expectSameAsFullBuild(workspace, "corrupt page records")
        }

        /// A site without languages or collections: home → a → b, and c, which nothing links to.
        static func linkChainSite() throws -> TemporaryFolder {
            try Site.smallSite(stories: [
                "home.json": Site.story("home", uuid: "h", linksTo: "a"),
                "a.json": Site.story("a", uuid: "a", linksTo: "b"),
                "b.json": Site.story("b", uuid: "b"),
                "c.json": Site.story("c", uuid: "c"),
            ])
        }

        /// Saves story `a` of ``linkChainSite()`` with its teaser titled `title`, linking to `target`.
        static func editA(in workspace: TemporaryFolder, title: String, linkTo target: String = "b") throws {
            try workspace.write("Content/a.json", Site.story("a", uuid: "a", linksTo: target)
                .replacingOccurrences(of: #""title": "Next""#, with: #""title": "\#(title)""#))
        }

        @Test("on a site without languages or collections, a rebuild after edits that move no link (text, a name) brings the kept graph up to date, one after a new link, story or removal replays the crawl over the kept edges, each as a full build would")
        func keptGraph() async throws {
            let workspace = try Self.linkChainSite()
            // With no graph kept yet there is nothing to bring up to date, and no such phase.
            let first = try await Self.phasesOfBuild(in: workspace)
            #expect(first.contains("crawl") && !first.contains("graph update"), "\(first)")
            #expect(workspace.exists("Output/.storysite/content-graph"))

            // Twice, so that the second build starts from the graph the first brought up to date.
            for title in ["Onward", "Forward"] {
                try Self.editA(in: workspace, title: title)
                let phases = try await Self.phasesOfBuild(in: workspace)
                #expect(phases.contains("graph update") && !phases.contains("crawl"), "\(phases)")
                #expect(try workspace.read("Output/a/index.html").contains(title))
                try await Self.expectSameAsFullBuild(workspace, "a text edit")
            }
            // A new name moves no link either: b's page shows it, and the graph is brought up to date.
            try workspace.write("Content/b.json", Site.story("b", uuid: "b").replacingOccurrences(of: #""name": "b""#, with: #""name": "Bee""#))
            let renamed = try await Self.phasesOfBuild(in: workspace)
            #expect(renamed.contains("graph update") && !renamed.contains("crawl"), "\(renamed)")
            #expect(try workspace.read("Output/b/index.html").contains("<h1>Bee</h1>"))
            try await Self.expectSameAsFullBuild(workspace, "a new name")
            // Now a links to c, which nothing linked to: the crawl is replayed over the kept edges
            // (a's found again), c gets its page and b, which nothing links to now, loses its.
            try Self.editA(in: workspace, title: "Forward", linkTo: "c")
            let relinked = try await Self.phasesOfBuild(in: workspace)
            #expect(relinked.contains("graph update") && !relinked.contains("crawl"), "\(relinked)")
            #expect(workspace.exists("Output/c/index.html") && !workspace.exists("Output/b/index.html"))
            try await Self.expectSameAsFullBuild(workspace, "a new link")
            // The replayed graph is kept in turn, whole: the next build starts from its edges.
            try Self.editA(in: workspace, title: "Ahead", linkTo: "c")
            let phases = try await Self.phasesOfBuild(in: workspace)
            #expect(phases.contains("graph update") && !phases.contains("crawl"), "\(phases)")
            try await Self.expectSameAsFullBuild(workspace, "a text edit after a new link")
            // A new story, then a link to it, then its removal: each replays the crawl over the
            // kept edges, and d's page comes and goes with the link.
            try workspace.write("Content/d.json", Site.story("d", uuid: "d", linksTo: "a"))
            for (change, edit) in [
                ("a new story", { }),
                ("a link to the new story", { try Self.editA(in: workspace, title: "Ahead", linkTo: "d") }),
                ("the linked story removed", { try FileManager.default.removeItem(at: workspace.path("Content/d.json")) }),
            ] as [(String, () throws -> Void)] {
                try edit()
                let phases = try await Self.phasesOfBuild(in: workspace)
                #expect(phases.contains("graph update") && !phases.contains("crawl"), "after \(change): \(phases)")
                #expect(workspace.exists("Output/d/index.html") == (change == "a link to the new story"), "after \(change)")
                try await Self.expectSameAsFullBuild(workspace, change)
            }

            // A kept graph that cannot be read means a crawl, to the same site.
            try workspace.write("Output/.storysite/content-graph", "storysite link graph 1\n\u{FF}")
            try Self.editA(in: workspace, title: "Beyond", linkTo: "c")
            let unreadable = try await Self.phasesOfBuild(in: workspace)
            #expect(unreadable.contains("crawl") && !unreadable.contains("graph update"), "\(unreadable)")
            try await Self.expectSameAsFullBuild(workspace, "a corrupt kept graph")
        }

        @Test("a rebuild that replaces the output folder (a layout edit changes every page) keeps the content records, so the next text edit brings the kept graph up to date")
        func replacedFolderKeepsRecords() async throws {
            let workspace = try Self.linkChainSite()
            _ = try await Self.phasesOfBuild(in: workspace)
            let records = ["content-files", "content-references", "content-graph"].map { "Output/.storysite/" + $0 }
            #expect(records.allSatisfy(workspace.exists))

            try Self.replace("<body>", with: "<body class=\"edited\">", in: "Templates/layout.mustache", of: workspace)
            let relaid = try await Self.phasesOfBuild(in: workspace)
            #expect(relaid.contains("graph update") && !relaid.contains("crawl"), "\(relaid)")
            #expect(try workspace.read("Output/b/index.html").contains("class=\"edited\""))
            #expect(records.allSatisfy(workspace.exists), "records of the folder replaced")

            try Self.editA(in: workspace, title: "Onward")
            let phases = try await Self.phasesOfBuild(in: workspace)
            #expect(phases.contains("graph update") && !phases.contains("crawl"), "\(phases)")
            try await Self.expectSameAsFullBuild(workspace, "a text edit after a layout edit")
        }

        /// The `Rendered … pages` line of a build's progress.
        static func renderedLine(of result: Executable.Result) -> String {
            result.stderr.split(separator: "\n").first { $0.contains("Rendered ") }.map(String.init) ?? ""
        }

        @Test("on a site without languages, a rebuild after edits of stories' content alone renders the pages that show it without fingerprinting every page, again and again; an edit of a name or a link, readers that cannot be read or a page file removed do what a full build would")
        func contentEdits() async throws {
            let workspace = try Self.linkChainSite()
            try workspace.write("storysite.json", #"{"baseURL": "https://example.test/"}"#)
            let first = try await Self.phasesOfBuild(in: workspace)
            #expect(first.contains("story identities") && !first.contains("content edit"), "\(first)")
            #expect(workspace.exists("Output/.storysite/readers"))
            let sitemap = try Self.inode("Output/sitemap.xml", in: workspace)

            // a's text, twice: home links to a, so it shows a's content too; b (a links to it) shows only a's name.
            for title in ["Onward", "Forward"] {
                try Self.editA(in: workspace, title: title)
                let result = try await Executable.run(["build", "--timings"], in: workspace.url)
                #expect(result.status == 0, "\(result.stderr)")
                let phases = Self.phaseNames(in: result.stderr.components(separatedBy: "Timings:").last ?? "")
                #expect(phases.contains("content edit") && !phases.contains("story identities"), "\(phases)")
                #expect(Self.renderedLine(of: result).contains("Rendered 2 pages, kept 1 unchanged"), "\(result.stderr)")
                #expect(try workspace.read("Output/a/index.html").contains(title))
                #expect(try Self.inode("Output/sitemap.xml", in: workspace) == sitemap, "the sitemap is kept")
                try await Self.expectSameAsFullBuild(workspace, "a content edit")
            }
            // A new name is more than content: every page is fingerprinted (a's and home's records,
            // which a content edit left without a fingerprint, render again to the same bytes).
            try workspace.write("Content/b.json", Site.story("b", uuid: "b").replacingOccurrences(of: #""name": "b""#, with: #""name": "Bee""#))
            let renamed = try await Self.phasesOfBuild(in: workspace)
            #expect(renamed.contains("story identities"), "\(renamed)")
            try await Self.expectSameAsFullBuild(workspace, "a new name")
            // So is a new link (a to c, b left unreached); the content edit after it uses the readers noted then.
            try Self.editA(in: workspace, title: "Forward", linkTo: "c")
            #expect(try await Self.phasesOfBuild(in: workspace).contains("story identities"))
            try await Self.expectSameAsFullBuild(workspace, "a new link")
            try Self.editA(in: workspace, title: "Ahead", linkTo: "c")
            #expect(!(try await Self.phasesOfBuild(in: workspace).contains("story identities")))
            try await Self.expectSameAsFullBuild(workspace, "a content edit after a new link")

            // A page file removed is rendered again, though it does not show the content edited.
            try FileManager.default.removeItem(at: workspace.path("Output/c/index.html"))
            try Self.editA(in: workspace, title: "Beyond", linkTo: "c")
            let restored = try await Executable.run(["build", "--timings"], in: workspace.url)
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(!restored.stderr.contains("story identities"), "\(restored.stderr)")
            #expect(Self.renderedLine(of: restored).contains("Rendered 3 pages"), "\(restored.stderr)")
            try await Self.expectSameAsFullBuild(workspace, "a content edit with a page file removed")

            // Readers that cannot be read, or none: the pages are fingerprinted.
            for damage in ["storysite content readers 1\n\u{FF}", nil] {
                if let damage {
                    try workspace.write("Output/.storysite/readers", damage)
                } else {
                    try FileManager.default.removeItem(at: workspace.path("Output/.storysite/readers"))
                }
                try Self.editA(in: workspace, title: damage == nil ? "Onward" : "Forward", linkTo: "c")
                #expect(try await Self.phasesOfBuild(in: workspace).contains("story identities"))
                try await Self.expectSameAsFullBuild(workspace, damage == nil ? "readers removed" : "corrupt readers")
            }
        }

        @Test("on a site with languages translated by field, each language's graph is kept apart and brought up to date after text edits and a new link; each as a full build would")
        func keptGraphPerLanguage() async throws {
            let workspace = try Self.linkChainSite()
            try workspace.write("storysite.json", #"{"languages": ["en", "de"]}"#)
            let first = try await Self.phasesOfBuild(in: workspace)
            #expect(first.filter { $0 == "crawl" }.count == 2 && !first.contains("graph update"), "\(first)")
            #expect(workspace.exists("Output/.storysite/content-graph.en") && workspace.exists("Output/.storysite/content-graph.de"))
            for title in ["Onward", "Forward"] {
                try Self.editA(in: workspace, title: title)
                let phases = try await Self.phasesOfBuild(in: workspace)
                #expect(phases.filter { $0 == "graph update" }.count == 2 && !phases.contains("crawl"), "\(phases)")
                #expect(try workspace.read("Output/de/a/index.html").contains(title))
                try await Self.expectSameAsFullBuild(workspace, "a text edit in two languages")
            }
            try Self.editA(in: workspace, title: "Forward", linkTo: "c")
            let relinked = try await Self.phasesOfBuild(in: workspace)
            #expect(relinked.filter { $0 == "graph update" }.count == 2 && !relinked.contains("crawl"), "\(relinked)")
            #expect(workspace.exists("Output/de/c/index.html") && !workspace.exists("Output/de/b/index.html"))
            try await Self.expectSameAsFullBuild(workspace, "a new link in two languages")
            try Self.editA(in: workspace, title: "Ahead", linkTo: "c")
            #expect(try await Self.phasesOfBuild(in: workspace).filter { $0 == "graph update" }.count == 2)
            try await Self.expectSameAsFullBuild(workspace, "a text edit in two languages after a new link")
        }

        @Test(
            "a link to an unchanged story makes it reachable, and the link's removal unreachable, as in a full build: crawled with collections, replayed over the kept edges without",
            arguments: [true, false])
        func reachability(collections: Bool) async throws {
            let workspace = try Site.demoWorkspace()
            if !collections {
                // The demo's one collection (shown by a component) taken out: its crawl is kept.
                var settings = try #require(try JSONSerialization.jsonObject(with: Data(try workspace.read("storysite.json").utf8)) as? [String: Any])
                settings["collections"] = nil
                try workspace.write("storysite.json", String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self))
            }
            let crawlsEachTime = { (stderr: String) in
                #expect(stderr.contains("\n  crawl ") == collections && stderr.contains("graph update") == !collections, "\(stderr)")
            }
            // A story in a folder without a start page: no listing reaches it, and no link yet.
            let orphan = #"""
                {"name": "Field notes", "uuid": "0d7c1b2e-5f3a-4c8e-9b1d-2a6f4e8c0b31", "slug": "field-notes", "full_slug": "notes/field-notes",
                 "content": {"_uid": "field-notes", "component": "page", "body": [
                   {"_uid": "intro", "component": "markdown_section", "text": "Notes from the field."}]}}
                """#
            try workspace.write("Content/notes/field-notes.json", orphan)
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(!FileManager.default.fileExists(atPath: workspace.path("Output/notes/field-notes/index.html").path))
            #expect(FileManager.default.fileExists(atPath: workspace.path("Output/.storysite/content-files").path))

            let post = "Content/blog/how-we-test-sync-on-a-train.json"
            let link = (#""href": "/blog/why-stockpot-works-offline-first","#, #""uuid": "6ebec51b-047d-45e8-9cac-9bc71085eaff""#)
            let toOrphan = (#""href": "/notes/field-notes","#, #""uuid": "0d7c1b2e-5f3a-4c8e-9b1d-2a6f4e8c0b31""#)
            try Self.replace(link.1, with: toOrphan.1, in: post, of: workspace)
            try Self.replace(link.0, with: toOrphan.0, in: post, of: workspace)
            let linked = try await Executable.run(["build", "--timings"], in: workspace.url)
            #expect(linked.status == 0, "\(linked.stderr)")
            crawlsEachTime(linked.stderr)
            #expect(FileManager.default.fileExists(atPath: workspace.path("Output/notes/field-notes/index.html").path))
            try await Self.expectSameAsFullBuild(workspace, "a link to an unreached story")

            try Self.replace(toOrphan.1, with: link.1, in: post, of: workspace)
            try Self.replace(toOrphan.0, with: link.0, in: post, of: workspace)
            let unlinked = try await Executable.run(["build", "--timings"], in: workspace.url)
            #expect(unlinked.status == 0, "\(unlinked.stderr)")
            crawlsEachTime(unlinked.stderr)
            #expect(!FileManager.default.fileExists(atPath: workspace.path("Output/notes/field-notes/index.html").path))
            try await Self.expectSameAsFullBuild(workspace, "the link removed again")
        }
    }
}
