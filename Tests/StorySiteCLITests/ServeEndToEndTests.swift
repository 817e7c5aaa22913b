import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Drives `storysite serve` as a user does: start it, browse, save files, stop it.
    @Suite("storysite serve, end to end")
    struct ServeEndToEndTests {
        static func get(_ url: String) async throws -> (status: Int, body: String, headers: [AnyHashable: Any]) {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            let (data, response) = try await URLSession(configuration: configuration).data(from: URL(string: url)!)
            let http = response as? HTTPURLResponse
            return (http?.statusCode ?? 0, String(decoding: data, as: UTF8.self), http?.allHeaderFields ?? [:])
        }

        /// The demo served on a free port, and a page's event stream that has said hello.
        static func serveDemo(_ arguments: [String] = []) async throws
            -> (workspace: TemporaryFolder, server: ServeProcess, url: String, events: LoopbackConnection)
        {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            let server = try ServeProcess(["--port", "0"] + arguments, in: workspace.url)
            let url = try await server.url()
            let events = try LoopbackConnection.events(at: url)
            #expect(await events.read(timeout: 10) { $0.contains("event: hello") })
            return (workspace, server, url, events)
        }

        /// The line serve printed about its rebuild numbered `number` (the first is 1), once
        /// printed (it follows the reload event); empty when it is not printed within 10 s.
        static func rebuildLine(_ number: Int, of server: ServeProcess) async -> String {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                let lines = server.output.components(separatedBy: "\n").filter { $0.hasPrefix("Rebuilt") }
                if lines.count >= number { return lines[number - 1] }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return ""
        }

        /// Waits for serve's rebuild numbered `number` (the first is 1) to reload the open pages,
        /// and expects it to have rendered only the pages that show the saved stories
        /// (`inPlace`), or to have built the site.
        static func expectRebuild(
            _ number: Int, inPlace: Bool, server: ServeProcess, events: LoopbackConnection, sourceLocation: SourceLocation = #_sourceLocation
        ) async {
            #expect(await events.read(timeout: 10) { reloads(in: $0) == number }, "\(server.errors)", sourceLocation: sourceLocation)
            let line = await rebuildLine(number, of: server)
            #expect(line.contains("only the pages that show the saved stor") == inPlace, "\(server.output)", sourceLocation: sourceLocation)
        }

        @Test("serve builds the demo, prints its URL, serves pages with the reload script, and stops cleanly on SIGTERM")
        func servesDemo() async throws {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            let server = try ServeProcess(["--port", "0"], in: workspace.url)
            let url = try await server.url()
            #expect(url.hasPrefix("http://127.0.0.1:"))
            #expect(server.output.contains("Serving Output/ at \(url) (Ctrl-C to stop)"))
            let home = try await Self.get(url)
            #expect(home.status == 200)
            #expect(home.body.contains("/_storysite/events"))
            #expect(try !workspace.read("Output/index.html").contains("/_storysite/events"))
            let about = try await Self.get(url + "about/")
            #expect(about.body.contains("We build calm software for small shops."))
            let missing = try await Self.get(url + "no/such/page/")
            #expect(missing.status == 404)
            #expect(await server.terminate() == 0)
        }

        @Test("saving a story rebuilds the site incrementally and tells open pages to reload once the new page is served")
        func reloadsOnSave() async throws {
            let (workspace, server, url, events) = try await Self.serveDemo(["--quiet"])
            let story = try workspace.read("Content/about.json")
            try workspace.write("Content/about.json", story.replacingOccurrences(of: "We build calm software", with: "We build saved software"))
            #expect(await events.read(timeout: 10) { $0.contains("event: reload") }, "\(server.errors)")
            #expect(try await Self.get(url + "about/").body.contains("We build saved software for small shops."))
            #expect(await server.terminate() == 0)

            // Serve keeps the build cache, so a build afterwards renders only the few pages that
            // show the saved story (serve put them in place itself: their records are older),
            // writes the one that changed again, and the site is what a full build makes.
            let after = try await Executable.run(["build"], in: workspace.url)
            #expect(after.stdout.contains("(1 written,"), "\(after.stdout)")
            let rendered = after.stderr.matches(of: /Rendered (\d+) pages?/).compactMap { Int($0.output.1) }.reduce(0, +)
            #expect((1..<10).contains(rendered), "a build after serve should find its cache: \(after.stderr)")
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "serving a save")
        }

        @Test("serve started after a build rebuilds a save from the content the build kept, as a full build would")
        func startsFromKeptContent() async throws {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            #expect(try await Executable.run(["build"], in: workspace.url).status == 0)
            #expect(workspace.exists("Output/.storysite/content-files"))
            let server = try ServeProcess(["--port", "0", "--quiet"], in: workspace.url)
            let url = try await server.url()
            let events = try LoopbackConnection.events(at: url)
            #expect(await events.read(timeout: 10) { $0.contains("event: hello") })
            let story = try workspace.read("Content/about.json")
            try workspace.write("Content/about.json", story.replacingOccurrences(of: "We build calm software", with: "We build kept software"))
            #expect(await events.read(timeout: 10) { $0.contains("event: reload") }, "\(server.errors)")
            #expect(try await Self.get(url + "about/").body.contains("We build kept software for small shops."))
            #expect(await server.terminate() == 0)
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "serving a save from the kept content")
        }

        @Test("on a site without languages, a text edit renders only the pages that show the story, a new link builds with the crawl replayed over the last graph, and a template saved later reuses that graph, each as a full build would")
        func reusesTheLastCrawl() async throws {
            let workspace = try IncrementalBuildTests.linkChainSite()
            // Serve's first build then has nothing to do and crawls nothing: the first save starts from the kept graph.
            #expect(try await Executable.run(["build"], in: workspace.url).status == 0)
            let server = try ServeProcess(["--port", "0", "--timings"], in: workspace.url)
            let url = try await server.url()
            let events = try LoopbackConnection.events(at: url)
            #expect(await events.read(timeout: 10) { $0.contains("event: hello") })
            /// The phases of the build numbered `number` (the first is 0), once printed.
            func phases(ofBuild number: Int) async -> [String] {
                let deadline = ContinuousClock.now + .seconds(10)
                while server.errors.components(separatedBy: "Timings:").count < number + 2, ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(20))
                }
                let reports = server.errors.components(separatedBy: "Timings:").dropFirst()
                guard number < reports.count else { return [] }
                return IncrementalBuildTests.phaseNames(in: Array(reports)[number])
            }
            // A text edit renders only the pages that show the story, from the site kept in memory;
            // twice, so that the second starts from what the first left.
            for (number, title) in ["Onward", "Forward"].enumerated() {
                try IncrementalBuildTests.editA(in: workspace, title: title)
                #expect(await events.read(timeout: 10) { Self.reloads(in: $0) == number + 1 }, "\(server.errors)")
                #expect(try await Self.get(url + "a/").body.contains(title))
                let rebuild = await phases(ofBuild: number + 1)
                #expect(rebuild.contains("plan update") && !rebuild.contains("load") && !rebuild.contains("crawl"), "\(rebuild)")
                #expect(await Self.rebuildLine(number + 1, of: server).contains("only the pages that show"), "\(server.output)")
                try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "a text edit under serve")
            }
            // Now a links to c, which nothing linked to: the site is built, the crawl replayed over the
            // graph serve holds (a's links found again), and c gets its page.
            try IncrementalBuildTests.editA(in: workspace, title: "Next", linkTo: "c")
            #expect(await events.read(timeout: 10) { Self.reloads(in: $0) == 3 }, "\(server.errors)")
            #expect(try await Self.get(url + "c/").status == 200)
            let relinked = await phases(ofBuild: 3)
            #expect(relinked.contains("graph update") && relinked.contains("load") && !relinked.contains("crawl"), "\(relinked)")
            #expect(!(await Self.rebuildLine(3, of: server).contains("only the pages")), "\(server.output)")
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "a new link under serve")
            // The next text edit starts from what that build kept.
            try IncrementalBuildTests.editA(in: workspace, title: "Ahead", linkTo: "c")
            #expect(await events.read(timeout: 10) { Self.reloads(in: $0) == 4 }, "\(server.errors)")
            #expect(await phases(ofBuild: 4).contains("plan update"))
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "a text edit after a new link under serve")
            // A template saved builds the site, bringing the graph of that build up to date rather than crawling.
            try workspace.write("Templates/layout.mustache", "<html><body class=\"saved\">{{$main}}{{/main}}</body></html>\n")
            #expect(await events.read(timeout: 10) { Self.reloads(in: $0) == 5 }, "\(server.errors)")
            let last = await phases(ofBuild: 5)
            #expect(last.contains("graph update") && last.contains("load") && !last.contains("crawl"), "\(last)")
            #expect(await server.terminate() == 0)
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "a template saved after text edits under serve")
        }

        @Test("on a site with one language, a save that edits only a story's content renders only the pages that show it, feeds and listings too, as a full build would; one of a story every page shows builds")
        func rendersOnlyThePagesShowingASavedStory() async throws {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            try workspace.write("storysite.json", #"""
                {"baseURL": "https://kestrelstudio.example/", "site": {"title": "Kestrel Studio"},
                 "listings": {"blog/": {"sort": "first_published_at desc", "perPage": 5, "feed": true, "summary": "content.excerpt"},
                              "tags/": {"sort": "first_published_at desc"}},
                 "collections": {"latest": {"folder": "blog/", "sort": "first_published_at desc", "limit": 3}}}
                """#)
            let server = try ServeProcess(["--port", "0"], in: workspace.url)
            let url = try await server.url()
            let events = try LoopbackConnection.events(at: url)
            #expect(await events.read(timeout: 10) { $0.contains("event: hello") })
            let post = "Content/blog/why-stockpot-works-offline-first.json"
            let original = try workspace.read(post)
            let excerpt = try #require(original.firstMatch(of: /"excerpt": "([^"]*)"/)?.output.1)
            // The excerpt shows on the post's page, in the blog's listing, its feed and the tag pages.
            try workspace.write(post, original.replacingOccurrences(of: excerpt, with: "An excerpt saved while serving"))
            await Self.expectRebuild(1, inPlace: true, server: server, events: events)
            #expect(try workspace.read("Output/blog/feed.xml").contains("An excerpt saved while serving"))
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "an excerpt saved under serve")
            // A new name is a new head: the site is built.
            let renamed = try workspace.read(post).replacingOccurrences(of: #""name": ""#, with: #""name": "Renamed: "#)
            try workspace.write(post, renamed)
            await Self.expectRebuild(2, inPlace: false, server: server, events: events)
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "a story renamed under serve")
            // And the next content edit renders only what shows it again, from that build.
            try workspace.write(post, renamed.replacingOccurrences(of: excerpt, with: "A second excerpt"))
            await Self.expectRebuild(3, inPlace: true, server: server, events: events)
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "an excerpt saved after a build under serve")
            // The newest post is in the collection `latest`, which every page sees: the site is built.
            let newest = "Content/blog/a-four-day-week-one-year-in.json"
            let newestText = try workspace.read(newest)
            let newestExcerpt = try #require(newestText.firstMatch(of: /"excerpt": "([^"]*)"/)?.output.1)
            try workspace.write(newest, newestText.replacingOccurrences(of: newestExcerpt, with: "The newest excerpt"))
            await Self.expectRebuild(4, inPlace: false, server: server, events: events)
            #expect(await server.terminate() == 0)
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "a post of a collection saved under serve")
        }

        @Test("on the starter site, with two languages translated by field, a save that edits one language's text renders only the pages that show it, as a full build would")
        func rendersOnlyThePagesShowingASavedStoryInEachLanguage() async throws {
            let (workspace, server, _, events) = try await Self.serveDemo()
            let post = "Content/blog/why-stockpot-works-offline-first.json"
            let original = try workspace.read(post)
            let german = try #require(original.firstMatch(of: /"excerpt__i18n__de": "([^"]*)"/)?.output.1)
            // The German excerpt shows on the German post, blog listing, feed and tag pages.
            try workspace.write(post, original.replacingOccurrences(of: german, with: "Ein Auszug, beim Servieren gespeichert"))
            await Self.expectRebuild(1, inPlace: true, server: server, events: events)
            #expect(try workspace.read("Output/de/blog/feed.xml").contains("Ein Auszug, beim Servieren gespeichert"))
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "a German excerpt saved under serve")
            // The English one shows in the English pages.
            let english = try #require(original.firstMatch(of: /"excerpt": "([^"]*)"/)?.output.1)
            try workspace.write(post, try workspace.read(post).replacingOccurrences(of: english, with: "An excerpt saved while serving"))
            await Self.expectRebuild(2, inPlace: true, server: server, events: events)
            #expect(try workspace.read("Output/blog/why-stockpot-works-offline-first/index.html").contains("An excerpt saved while serving"))
            #expect(await server.terminate() == 0)
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "an English excerpt saved under serve")
        }

        @Test("with languages by folder, a save of a story's text renders only the pages that show it; one that another language's page links to, having no version of its own, builds")
        func rendersOnlyThePagesShowingASavedStoryOfALanguageFolder() async throws {
            typealias Folders = FolderLanguagesEndToEndTests
            let workspace = try Folders.workspace(try Folders.space(), settings: Folders.settings)
            try workspace.write("Templates/components/teaser.mustache", "link=<a href=\"{{link.href}}\">{{link.title}}</a> title={{title}}\n")
            let server = try ServeProcess(["--port", "0"], in: workspace.url)
            let url = try await server.url()
            let events = try LoopbackConnection.events(at: url)
            #expect(await events.read(timeout: 10) { $0.contains("event: hello") })
            // The German home's teaser of `about`: shown on the German home alone.
            let home = "Content/de/home.json"
            let edited = try workspace.read(home).replacing(/"title" ?: ?"en-about"/, with: #""title": "Über den Teaser""#)
            try workspace.write(home, edited)
            await Self.expectRebuild(1, inPlace: true, server: server, events: events)
            #expect(await Self.rebuildLine(1, of: server).contains("(1 written"), "\(server.output)")
            #expect(try workspace.read("Output/de/index.html").contains("title=Über den Teaser"))
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "a German teaser saved under serve")
            // The French home links to `en/only`, which has no French version: a save of it builds.
            let only = "Content/en/only.json"
            try workspace.write(only, try workspace.read(only).replacing(/"body" ?: ?\[/, with: #""note": "edited", "body": ["#))
            await Self.expectRebuild(2, inPlace: false, server: server, events: events)
            #expect(await server.terminate() == 0)
            try await IncrementalBuildTests.expectSameAsFullBuild(workspace, "a story another language links to saved under serve")
        }

        @Test("with --timings, serve prints the phases of its first build and of every rebuild")
        func timings() async throws {
            let (workspace, server, _, events) = try await Self.serveDemo(["--timings"])
            #expect(await server.printsError("Timings:"), "the first build's")
            let story = try workspace.read("Content/about.json")
            try workspace.write("Content/about.json", story.replacingOccurrences(of: "We build calm software", with: "We build timed software"))
            #expect(await events.read(timeout: 10) { $0.contains("event: reload") }, "\(server.errors)")
            #expect(await server.terminate() == 0)
            let reports = Array(server.errors.components(separatedBy: "Timings:").dropFirst())
            #expect(reports.count == 2, "\(server.errors)")
            // The save edited text alone: serve renders the pages that show it, in phases of its own.
            for (report, phases) in zip(reports, [["crawl", "render", "write", "total"], ["read", "graph update", "plan update", "render", "write", "total"]]) {
                for phase in phases {
                    #expect(report.contains("\n  \(phase) "), "\(phase) in \(report)")
                }
            }
        }

        @Test("saves that keep coming while rebuilds run end with the last save served")
        func lastSaveWins() async throws {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            let server = try ServeProcess(["--port", "0", "--quiet"], in: workspace.url)
            let url = try await server.url()
            let story = try workspace.read("Content/about.json")
            for version in 1...8 {
                try workspace.write("Content/about.json", story.replacingOccurrences(of: "We build calm software", with: "We build version \(version) software"))
                try await Task.sleep(for: .milliseconds(70))
            }
            let deadline = ContinuousClock.now + .seconds(10)
            var body = ""
            while ContinuousClock.now < deadline {
                body = try await Self.get(url + "about/").body
                if body.contains("We build version 8 software") { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(body.contains("We build version 8 software"), "\(server.errors)")
            #expect(await server.terminate() == 0)
        }

        @Test("a broken template keeps the last good site and shows its error on every page until a fix reloads them")
        func brokenTemplate() async throws {
            let (workspace, server, url, events) = try await Self.serveDemo()
            let layout = try workspace.read("Templates/layout.mustache")
            try workspace.write("Templates/layout.mustache", layout + "{{#unclosed}}\n")
            #expect(await events.read(timeout: 10) { $0.contains("event: error") && $0.contains(#"Templates\/layout.mustache:"#) })
            #expect(events.text.contains("unclosed"))
            #expect(try await Self.get(url + "about/").body.contains("We build calm software"))
            let late = try LoopbackConnection.events(at: url)
            #expect(await late.read(timeout: 10) { $0.contains("event: error") })
            try workspace.write("Templates/layout.mustache", layout)
            #expect(await events.read(timeout: 10) { $0.contains("event: reload") })
            #expect(server.errors.contains("Build failed with 1 error"))
            #expect(await server.terminate() == 0)
        }

        /// How many `reload` events a page has received.
        static func reloads(in events: String) -> Int {
            events.components(separatedBy: "event: reload").count - 1
        }

        @Test("saving storysite.json rebuilds with its new settings; a broken file keeps the last good site and shows its error until a fix")
        func reloadsSettings() async throws {
            let (workspace, server, url, events) = try await Self.serveDemo()
            try workspace.write("storysite.json", #"{"site": {"title": "Osprey Studio"}}"#)
            #expect(await events.read(timeout: 10) { Self.reloads(in: $0) == 1 }, "\(server.errors)")
            #expect(try await Self.get(url + "about/").body.contains("Osprey Studio"))

            try workspace.write("storysite.json", #"{"site": {"title": "Broken"},}"#)
            #expect(await events.read(timeout: 10) { $0.contains("event: error") && $0.contains("storysite.json:1:30") })
            #expect(events.text.contains("expected a string key in object"))
            #expect(await server.printsError("storysite.json:1:30: error: expected a string key in object"))
            #expect(await server.printsError("Build failed with 1 error"))
            let stale = try await Self.get(url + "about/").body
            #expect(stale.contains("Osprey Studio") && !stale.contains("Broken"))

            try workspace.write("storysite.json", #"{"site": {"title": "Heron Studio"}}"#)
            #expect(await events.read(timeout: 10) { Self.reloads(in: $0) == 2 }, "\(server.errors)")
            #expect(try await Self.get(url + "about/").body.contains("Heron Studio"))

            try FileManager.default.removeItem(at: workspace.path("storysite.json"))
            #expect(await events.read(timeout: 10) { Self.reloads(in: $0) == 3 }, "\(server.errors)")
            let defaults = try await Self.get(url + "about/").body
            #expect(!defaults.contains("Heron Studio") && defaults.contains("We build calm software"))
            #expect(await server.terminate() == 0)
        }

        @Test("a new output folder in storysite.json is a warning, once, to restart serve, which keeps writing the first one")
        func outputNeedsRestart() async throws {
            let (workspace, server, url, events) = try await Self.serveDemo()
            try workspace.write("storysite.json", #"{"output": "public", "site": {"title": "Osprey Studio"}}"#)
            #expect(await events.read(timeout: 10) { Self.reloads(in: $0) == 1 }, "\(server.errors)")
            let warning = "storysite.json: warning: 'output' cannot change while serving: still using 'Output'; "
                + "restart storysite serve to use the new value"
            #expect(await server.printsError(warning))
            #expect(try await Self.get(url).body.contains("Osprey Studio"))
            #expect(try workspace.read("Output/index.html").contains("Osprey Studio"))
            #expect(!workspace.exists("public"))

            let story = try workspace.read("Content/about.json")
            try workspace.write("Content/about.json", story.replacingOccurrences(of: "We build calm software", with: "We build saved software"))
            #expect(await events.read(timeout: 10) { Self.reloads(in: $0) == 2 }, "\(server.errors)")
            #expect(try await Self.get(url + "about/").body.contains("We build saved software"))
            #expect(server.errors.components(separatedBy: "cannot change while serving").count == 2)
            #expect(await server.terminate() == 0)
        }

        @Test("serve DIR serves a folder as it is, without building, and a busy port fails with a message")
        func servesFolder() async throws {
            let workspace = try TemporaryFolder()
            try workspace.write("site/index.html", "<html><body>prebuilt</body></html>")
            let server = try ServeProcess(["site", "--port", "0"], in: workspace.url)
            let url = try await server.url()
            #expect(server.output.hasPrefix("Serving site/ at http://127.0.0.1:"))
            let home = try await Self.get(url)
            #expect(home.body == "<html><body>prebuilt</body></html>")
            #expect(!workspace.exists("Output"))
            let port = URL(string: url)!.port!
            let busy = try await Executable.run(["serve", "site", "--port", String(port)], in: workspace.url)
            #expect(busy.status == 1)
            #expect(busy.stderr.contains("cannot listen on 127.0.0.1:\(port)"))
            #expect(await server.terminate() == 0)
        }

        @Test("serve DIR refuses build options and a folder that does not exist")
        func folderMistakes() async throws {
            let workspace = try TemporaryFolder()
            try workspace.write("site/index.html", "x")
            let withOption = try await Executable.run(["serve", "site", "--source", "Content"], in: workspace.url)
            #expect(withOption.status == 64)
            #expect(withOption.stderr.contains("'--source' is a build option"))
            let missing = try await Executable.run(["serve", "nowhere", "--port", "0"], in: workspace.url)
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("nowhere: error: there is no folder to serve here"))
            let badPort = try await Executable.run(["serve", "--port", "70000"], in: workspace.url)
            #expect(badPort.status == 64)
        }
    }
}
