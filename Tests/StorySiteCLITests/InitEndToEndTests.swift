import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// `storysite init` as a newcomer runs it: a starter site that builds and serves at once.
    @Suite("storysite init, end to end")
    struct InitEndToEndTests {
        @Test("init writes a starter site into a new folder, and build then works there with no warnings")
        func initThenBuild() async throws {
            let workspace = try TemporaryFolder()
            let created = try await Executable.run(["init", "mysite"], in: workspace.url)
            #expect(created.status == 0, "\(created.stderr)")
            #expect(created.stdout.contains("Next: cd mysite && storysite serve"), "\(created.stdout)")
            for path in ["Content/home.json", "Templates/layout.mustache", "Templates/assets/style.css", "storysite.json",
                         ".gitignore", ".github/workflows/pages.yml"] {
                #expect(workspace.exists("mysite/" + path), "\(path)")
            }
            let site = workspace.path("mysite")
            let built = try await Executable.run(["build", "--strict"], in: site)
            #expect(built.status == 0, "\(built.stderr)")
            #expect(built.stdout.contains(" 0 warnings"), "\(built.stdout)\(built.stderr)")
            #expect(try workspace.read("mysite/Output/about/index.html").contains("We build calm software for small shops."))
        }

        @Test("init without a folder writes into the current folder, and serve then serves the site")
        func initThenServe() async throws {
            let workspace = try TemporaryFolder()
            let created = try await Executable.run(["init"], in: workspace.url)
            #expect(created.status == 0, "\(created.stderr)")
            #expect(created.stdout.contains("into this folder. Next: storysite serve"), "\(created.stdout)")
            let server = try ServeProcess(["--port", "0"], in: workspace.url)
            let url = try await server.url()
            let about = try await ServeEndToEndTests.get(url + "about/")
            #expect(about.status == 200)
            #expect(about.body.contains("We build calm software for small shops."))
            #expect(await server.terminate() == 0)
        }

        @Test("init refuses a folder that is not empty, naming what it holds, and writes nothing")
        func refusesNonEmptyFolder() async throws {
            let workspace = try TemporaryFolder()
            try workspace.write("mysite/notes.txt", "mine")
            let result = try await Executable.run(["init", "mysite"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("mysite: error: the folder is not empty (it holds 'notes.txt')"), "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("mysite").path) == ["notes.txt"])
        }

        @Test("init refuses a path that is a file")
        func refusesFile() async throws {
            let workspace = try TemporaryFolder()
            try workspace.write("mysite", "a file")
            let result = try await Executable.run(["init", "mysite"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("mysite: error: is a file, not a folder"), "\(result.stderr)")
        }

        @Test("init takes at most one folder")
        func oneFolder() async throws {
            let workspace = try TemporaryFolder()
            let result = try await Executable.run(["init", "a", "b"], in: workspace.url)
            #expect(result.status == 64)
            #expect(result.stderr.contains("Unexpected argument 'b'"), "\(result.stderr)")
        }
    }
}
