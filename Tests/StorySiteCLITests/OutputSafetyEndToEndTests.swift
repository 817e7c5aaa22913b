import Foundation
import SiteOutput
import Testing
import TestSupport

extension StorySiteCLITests {
    /// What `storysite build` deletes, writes and refuses in its output folder, driven the way a
    /// careless user or a hostile cache would (issue 18, failures 1 to 6). "Unreadable" is real:
    /// the builds that need it run without root's permission override (``Executable/honouringPermissions``).
    @Suite("storysite build, output safety")
    struct OutputSafetyEndToEndTests {
        typealias Site = BuildEndToEndTests

        /// A home page linking to `count` stories `s01`…, enough that changing two files updates
        /// the folder in place (at most a tenth of the files changed) rather than through staging.
        static func site(count: Int = 25, extra: [String: String] = [:]) throws -> TemporaryFolder {
            let slugs = (1...count).map { String(format: "s%02d", $0) }
            let teasers = slugs.map {
                #"{"component": "teaser", "_uid": "\#($0)", "title": "\#($0)", "link": {"id": "\#($0)", "linktype": "story", "fieldtype": "multilink", "cached_url": ""}}"#
            }
            var stories = ["home.json": #"{"name": "Home", "uuid": "h", "full_slug": "home", "content": {"component": "page", "_uid": "r", "body": [\#(teasers.joined(separator: ","))]}}"#]
            for slug in slugs { stories["\(slug).json"] = Site.story(slug, uuid: slug) }
            stories.merge(extra) { _, new in new }
            return try Site.smallSite(stories: stories)
        }

        static func build(_ workspace: TemporaryFolder, _ arguments: [String] = [], honouringPermissions: Bool = false) async throws -> Executable.Result {
            try await Executable.run(
                ["build"] + arguments, in: workspace.url, launcher: honouringPermissions ? Executable.honouringPermissions : [])
        }

        /// Every file below `folder` with its bytes, `.storysite/` included.
        static func snapshot(_ folder: URL) throws -> [String: Data] {
            try Site.allFiles(in: folder, records: true)
        }

        // MARK: 1. A sub-folder that cannot be listed

        @Test("a sub-folder of the output that cannot be listed stops the build, and the user's file in it stays")
        func unlistableSubfolder() async throws {
            let workspace = try Self.site()
            #expect(try await Self.build(workspace).status == 0)
            try workspace.write("Output/s03/private/notes.txt", "mine")
            let folder = workspace.path("Output/s03/private").path
            chmod(folder, 0)
            defer { chmod(folder, 0o755) }
            // A template edit rewrites every page, through a staging folder that replaces the output.
            try workspace.write("Templates/layout.mustache", "<html><body class=\"v2\">{{$main}}{{/main}}</body></html>\n")
            let result = try await Self.build(workspace, honouringPermissions: true)
            #expect(result.status == 1)
            #expect(result.stderr.contains("Output: error: could not list 's03/private' (Permission denied), so storysite cannot tell whether it holds files of yours"), "\(result.stderr)")
            #expect(result.stderr.contains("Output/ was left as it was"))
            chmod(folder, 0o755)
            #expect(try workspace.read("Output/s03/private/notes.txt") == "mine")
            #expect(!(try workspace.read("Output/index.html")).contains("v2"))
        }

        // MARK: 2. An untrusted manifest

        @Test("a manifest naming paths outside the output folder is refused, and nothing outside is deleted", arguments: [
            "../victim.txt", "/tmp/victim.txt", ".git/config", "s01/../../victim.txt",
        ])
        func manifestTraversal(entry: String) async throws {
            // Enough pages that removing one story and the injected entry updates in place.
            let workspace = try Self.site(count: 40)
            #expect(try await Self.build(workspace).status == 0)
            try workspace.write("victim.txt", "outside")
            let manifestPath = "Output/.storysite/manifest.json"
            let manifest = try workspace.read(manifestPath)
            let injected = #""files": {"# + "\n" + #"    "\#(entry)": {"hash": "x", "modified": "1", "size": 7},"#
            let edited = manifest.replacingOccurrences(of: #""files": {"#, with: injected)
            try #require(edited != manifest)
            try workspace.write(manifestPath, edited)
            // Deleting a story is an in-place update that removes files the manifest lists.
            try FileManager.default.removeItem(at: workspace.path("Content/s40.json"))
            let result = try await Self.build(workspace)
            #expect(result.status == 1)
            #expect(result.stderr.contains("lists '\(entry)', which storysite would never write"), "\(result.stderr)")
            #expect(try workspace.read("victim.txt") == "outside")
            #expect(workspace.exists("Output/s40/index.html"))
        }

        // MARK: 3. Two builds at once

        @Test("two builds at once never mix: one waits its turn or is refused naming the other, and the site is whole")
        func concurrentBuilds() async throws {
            let workspace = try Site.demoWorkspace()
            async let first = Self.build(workspace)
            async let second = Self.build(workspace, ["--base-url", "https://example.com/"])
            let results = try await [first, second]
            for result in results where result.status != 0 {
                #expect(result.stderr.contains("Output: error: another storysite (pid "), "\(result.stderr)")
                #expect(result.stderr.contains(", storysite build) is building into this folder"), "\(result.stderr)")
            }
            #expect(results.contains { $0.status == 0 })
            // The manifest lists exactly the files on disk.
            let files = Set(try Site.allFiles(in: workspace.path("Output")).keys)
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: workspace.path("Output/.storysite/manifest.json")))
            let listed = Set(((manifest as? [String: Any])?["files"] as? [String: Any] ?? [:]).keys)
            #expect(files == listed)
            #expect(try await Self.build(workspace).status == 0)
        }

        @Test("a build of a locked output folder changes nothing and names the process holding it")
        func lockedOutputRefused() async throws {
            let workspace = try Self.site(count: 2)
            #expect(try await Self.build(workspace).status == 0)
            let before = try Self.snapshot(workspace.path("Output"))
            try Self.replace(#""name": "Home""#, with: #""name": "Home, edited""#, in: "Content/home.json", of: workspace)
            var lock: OutputLock? = try OutputLock.acquire(for: workspace.path("Output"), displayPath: "Output", command: "storysite serve")
            let refused = try await Self.build(workspace)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains(
                "Output: error: another storysite (pid \(getpid()), storysite serve) is building into this folder; wait for it to finish or stop it, then build again"),
                "\(refused.stderr)")
            #expect(try Self.snapshot(workspace.path("Output")) == before)
            withExtendedLifetime(lock) {}
            lock = nil
            #expect(try await Self.build(workspace).status == 0)
        }

        @Test("serve's builds take the lock too: one that finds it taken shows the holder, and a later save builds")
        func serveTakesTheLock() async throws {
            let workspace = try Self.site(count: 2)
            var lock: OutputLock? = try OutputLock.acquire(for: workspace.path("Output"), displayPath: "Output", command: "storysite build")
            let server = try ServeProcess(["--port", "0"], in: workspace.url)
            #expect(await server.printsError("Output: error: another storysite (pid \(getpid()), storysite build) is building into this folder"), "\(server.errors)")
            #expect(!workspace.exists("Output/index.html"))
            withExtendedLifetime(lock) {}
            lock = nil
            try Self.replace(#""name": "Home""#, with: #""name": "Home, edited""#, in: "Content/home.json", of: workspace)
            let deadline = ContinuousClock.now + .seconds(10)
            while !((try? workspace.read("Output/index.html"))?.contains("Home, edited") ?? false), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try workspace.read("Output/index.html").contains("Home, edited"), "\(server.errors)")
            _ = await server.terminate()
        }

        @Test("the lock file of a build that was killed is taken over, and removed when the build is done")
        func staleLockTakenOver() async throws {
            let workspace = try Self.site(count: 2)
            try workspace.write(".Output.storysite-lock", "pid 999999, storysite build\n")
            let result = try await Self.build(workspace)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!workspace.exists(".Output.storysite-lock"), "a build removes its lock file when done")
        }

        // MARK: 4. Honest failure

        @Test("a slug that cannot be a page fails before anything is written, naming the story and its slug", arguments: [
            ("index.html", "index.html: error: slug 'index.html' cannot be a page path: 'index.html' is the file of every page, so it cannot also be a folder of one"),
            ("s01/index.html", "s01/index.html: error: slug 's01/index.html' cannot be a page path: 'index.html' is the file of every page"),
            (String(repeating: "x", count: 300), "error: slug '\(String(repeating: "x", count: 300))' cannot be a page path: the segment 'xxxxxxxxxxxxxxxxxxxx…' is 300 bytes long; a file name may be at most 255"),
            ("assets/style.css", "assets/style.css: error: the page of 'assets/style.css' would be at 'assets/style.css/index.html', but 'assets/style.css' is a file there: the asset 'Templates/assets/style.css'; rename the story"),
        ])
        func badNewSlug(slug: String, message: String) async throws {
            let workspace = try Self.site()
            try workspace.write("Templates/assets/style.css", "body{}")
            #expect(try await Self.build(workspace).status == 0)
            let before = try Self.snapshot(workspace.path("Output"))
            try workspace.write("Content/new.json", Site.story(slug, uuid: "new"))
            try Self.replace(#""id": "s01""#, with: #""id": "new""#, in: "Content/home.json", of: workspace)
            let result = try await Self.build(workspace)
            #expect(result.status == 1)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(try Self.snapshot(workspace.path("Output")) == before)
            #expect(!workspace.exists("Output/.storysite/tmp"))
        }

        @Test("an in-place update that fails half-way puts back every file it changed and leaves no temporary folder")
        func failedUpdateRollsBack() async throws {
            let workspace = try Self.site()
            #expect(try await Self.build(workspace).status == 0)
            let before = try Self.snapshot(workspace.path("Output"))
            // Home is written first, then s20's page, whose folder refuses the new file.
            try Self.replace(#""name": "Home""#, with: #""name": "Home, edited""#, in: "Content/home.json", of: workspace)
            try Self.replace(#""name": "s20""#, with: #""name": "s20, edited""#, in: "Content/s20.json", of: workspace)
            let folder = workspace.path("Output/s20").path
            chmod(folder, 0o555)
            defer { chmod(folder, 0o755) }
            let result = try await Self.build(workspace, honouringPermissions: true)
            chmod(folder, 0o755)
            #expect(result.status == 1)
            #expect(result.stderr.contains("Output: error: could not update the site: rename "), "\(result.stderr)")
            #expect(result.stderr.contains("s20/index.html: Permission denied; the folder is as it was"), "\(result.stderr)")
            #expect(try Self.snapshot(workspace.path("Output")) == before)
            #expect(!workspace.exists("Output/.storysite/tmp"))
            #expect(try await Self.build(workspace).status == 0)
            #expect(try workspace.read("Output/index.html").contains("Home, edited"))
        }

        // MARK: 5. One normal form

        @Test("a slug changed from decomposed to composed and then deleted leaves no page behind")
        func normalFormsOfASlug() async throws {
            let decomposed = "cafe\u{301}", composed = "caf\u{E9}"
            let workspace = try Self.site(extra: ["cafe.json": Site.story(decomposed, uuid: "cafe")])
            try Self.replace(#""id": "s01""#, with: #""id": "cafe""#, in: "Content/home.json", of: workspace)
            #expect(try await Self.build(workspace).status == 0)
            let names = { try FileManager.default.contentsOfDirectory(atPath: workspace.path("Output").path).filter { $0.hasPrefix("caf") } }
            #expect(try names().map { Array($0.utf8) } == [Array(composed.utf8)])

            try workspace.write("Content/cafe.json", Site.story(composed, uuid: "cafe"))
            #expect(try await Self.build(workspace).status == 0)
            try FileManager.default.removeItem(at: workspace.path("Content/cafe.json"))
            let deleted = try await Self.build(workspace)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(try names().isEmpty)
            try Self.replace(#""name": "Home""#, with: #""name": "Home again""#, in: "Content/home.json", of: workspace)
            let later = try await Self.build(workspace)
            #expect(later.status == 0, "\(later.stderr)")
        }

        // MARK: 6. An unreadable template folder

        @Test("an unreadable Templates/components fails the build instead of rendering blocks as nothing")
        func unreadableComponents() async throws {
            let workspace = try Self.site()
            #expect(try await Self.build(workspace).status == 0)
            let before = try Self.snapshot(workspace.path("Output"))
            let folder = workspace.path("Templates/components").path
            chmod(folder, 0)
            defer { chmod(folder, 0o755) }
            try Self.replace(#""name": "Home""#, with: #""name": "Home, edited""#, in: "Content/home.json", of: workspace)
            let result = try await Self.build(workspace, honouringPermissions: true)
            chmod(folder, 0o755)
            #expect(result.status == 1)
            #expect(result.stderr.contains("Templates/components: error: folder cannot be listed ("), "\(result.stderr)")
            #expect(try Self.snapshot(workspace.path("Output")) == before)
        }

        @Test("an unreadable folder of Templates/assets fails the build instead of dropping its files")
        func unreadableAssets() async throws {
            let workspace = try Self.site()
            try workspace.write("Templates/assets/images/logo.svg", "<svg/>")
            let folder = workspace.path("Templates/assets/images").path
            chmod(folder, 0)
            defer { chmod(folder, 0o755) }
            let result = try await Self.build(workspace, honouringPermissions: true)
            #expect(result.status == 1)
            #expect(result.stderr.contains("Templates/assets/images: error: folder cannot be listed ("), "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        static func replace(_ old: String, with new: String, in path: String, of workspace: TemporaryFolder) throws {
            try IncrementalBuildTests.replace(old, with: new, in: path, of: workspace)
        }
    }
}
