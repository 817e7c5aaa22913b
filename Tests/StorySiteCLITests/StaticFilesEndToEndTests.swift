import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// `static/` beside `Templates/`: root files copied to the output as they are.
    @Suite("storysite build, static files")
    struct StaticFilesEndToEndTests {
        typealias Site = BuildEndToEndTests

        static let favicon = Data([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 0xFF, 0x80])

        /// The demo with the root files a host reads.
        static func demoWithStaticFiles() throws -> TemporaryFolder {
            let workspace = try Site.demoWorkspace()
            try workspace.write("static/CNAME", "www.kestrel.example\n")
            try workspace.write("static/_redirects", "/old-about /about/ 301\n")
            try workspace.write("static/.well-known/security.txt", "Contact: mailto:security@kestrel.example\n")
            try workspace.write("static/robots.txt", "User-agent: *\nDisallow: /drafts/\n")
            try Self.favicon.write(to: workspace.path("static/favicon.ico"))
            return workspace
        }

        @Test("static files are copied to the output root byte for byte, and static/robots.txt replaces the generated one")
        func copiedAsTheyAre() async throws {
            let workspace = try Self.demoWithStaticFiles()
            let result = try await Executable.run(["build", "--base-url", "https://www.kestrel.example/"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try workspace.read("Output/CNAME") == "www.kestrel.example\n")
            #expect(try workspace.read("Output/_redirects") == "/old-about /about/ 301\n")
            #expect(try workspace.read("Output/.well-known/security.txt") == "Contact: mailto:security@kestrel.example\n")
            #expect(try workspace.read("Output/robots.txt") == "User-agent: *\nDisallow: /drafts/\n")
            #expect(try Data(contentsOf: workspace.path("Output/favicon.ico")) == Self.favicon)
            #expect(workspace.exists("Output/sitemap.xml"))
            let manifest = try workspace.read("Output/.storysite/manifest.json")
            #expect(manifest.contains("\"CNAME\"") && manifest.contains("\".well-known/security.txt\""))
        }

        @Test("a rebuild with nothing changed writes nothing; one without a deleted static file removes it")
        func rebuilds() async throws {
            let workspace = try Self.demoWithStaticFiles()
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            let again = try await Executable.run(["build"], in: workspace.url)
            #expect(again.stdout.contains("(0 written, "), "\(again.stdout)")
            #expect(again.stdout.contains(" 0 removed)"), "\(again.stdout)")

            try FileManager.default.removeItem(at: workspace.path("static/_redirects"))
            let removed = try await Executable.run(["build"], in: workspace.url)
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stdout.contains("(0 written, "), "\(removed.stdout)")
            #expect(removed.stdout.contains(" 1 removed)"), "\(removed.stdout)")
            #expect(!workspace.exists("Output/_redirects"))

            // A theme edit rewrites every page, so the site is swapped in whole: a static
            // dotfolder that is gone must not come back as if it were the user's own dotfile.
            try FileManager.default.removeItem(at: workspace.path("static/.well-known"))
            let layout = try workspace.read("Templates/layout.mustache")
            try workspace.write("Templates/layout.mustache", layout.replacingOccurrences(of: "</body>", with: "<!-- edited --></body>"))
            let swapped = try await Executable.run(["build"], in: workspace.url)
            #expect(swapped.status == 0, "\(swapped.stderr)")
            #expect(!workspace.exists("Output/.well-known"))
            #expect(workspace.exists("Output/CNAME"))
        }

        @Test("a user's own dotfile in the output stays when static files change")
        func userDotfilesStay() async throws {
            let workspace = try Self.demoWithStaticFiles()
            #expect(try await Executable.run(["build"], in: workspace.url).status == 0)
            try workspace.write("Output/.nojekyll", "")
            try workspace.write("static/CNAME", "kestrel.example\n")
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try workspace.read("Output/CNAME") == "kestrel.example\n")
            #expect(workspace.exists("Output/.nojekyll"))
        }

        @Test("serve rebuilds when a static file is saved, and serves it")
        func serveWatchesStaticFolder() async throws {
            let workspace = try Site.smallSite(stories: ["home.json": Site.story("home", uuid: "h")])
            let server = try ServeProcess(["--port", "0", "--quiet"], in: workspace.url)
            let url = try await server.url()
            try workspace.write("static/_headers", "/*\n  X-Frame-Options: DENY\n")
            let deadline = ContinuousClock.now + .seconds(10)
            var served = (status: 0, body: "")
            while ContinuousClock.now < deadline {
                let response = try await ServeEndToEndTests.get(url + "_headers")
                served = (response.status, response.body)
                if served.status == 200 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(served.status == 200)
            #expect(served.body == "/*\n  X-Frame-Options: DENY\n")
            #expect(await server.terminate() == 0)
        }

        @Test("a static file where the build writes a page or an asset is an error naming both")
        func collisions() async throws {
            let workspace = try Site.demoWorkspace()
            try workspace.write("static/about/index.html", "<p>mine</p>")
            try workspace.write("static/assets/style.css", "body {}")
            try workspace.write("static/blog", "a file where the blog's pages go")
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains(
                "static/about/index.html: error: the build also writes 'about/index.html', the page of 'about' (en); rename or remove one of them"),
                "\(result.stderr)")
            #expect(result.stderr.contains(
                "static/assets/style.css: error: the build also writes 'assets/style.css', from Templates/assets/style.css;"),
                "\(result.stderr)")
            #expect(result.stderr.contains("static/blog: error: the build writes files into the folder 'blog/'"), "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        @Test("\"static\" in storysite.json names another folder, which is not a valid output folder")
        func configuredFolder() async throws {
            let workspace = try Site.smallSite(stories: ["home.json": Site.story("home", uuid: "h")])
            try workspace.write("storysite.json", #"{"static": "root"}"#)
            try workspace.write("root/CNAME", "example.com\n")
            try workspace.write("static/CNAME", "not this one\n")
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try workspace.read("Output/CNAME") == "example.com\n")
            let clash = try await Executable.run(["build", "--output", "root"], in: workspace.url)
            #expect(clash.status == 1)
            #expect(clash.stderr.contains("cannot be, contain or lie inside the static folder"), "\(clash.stderr)")
        }

        @Test("a static file inside .storysite/, storysite's own folder, is an error")
        func reservedFolder() async throws {
            let workspace = try Site.smallSite(stories: ["home.json": Site.story("home", uuid: "h")])
            try workspace.write("static/.storysite/manifest.json", "{}")
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("static/.storysite/manifest.json: error: storysite keeps its build cache in '.storysite/'"), "\(result.stderr)")
        }
    }
}
