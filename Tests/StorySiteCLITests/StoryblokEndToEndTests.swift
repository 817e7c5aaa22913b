import FakeStoryblokAPI
import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Builds and pulls through a fake Content Delivery API on 127.0.0.1, running the executable.
    @Suite("Building from the Storyblok API, end to end")
    struct StoryblokEndToEndTests {
        static let token = "sk-secret-9f8e7d6c5b4a"

        /// The demo workspace, with a fake API serving its content under `token`.
        static func demoWithAPI() throws -> (TemporaryFolder, FakeStoryblokAPI, URL) {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            let api = try FakeStoryblokAPI(folder: workspace.path("Content"), publicToken: token)
            let url = try api.start()
            return (workspace, api, url)
        }

        static func assertNoToken(_ result: Executable.Result, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(!result.stdout.contains(token) && !result.stderr.contains(token), sourceLocation: sourceLocation)
        }

        @Test("a build from the API equals the build from its pulled folder, and the token appears nowhere")
        func pullThenOfflineBuild() async throws {
            let (workspace, api, url) = try Self.demoWithAPI()
            defer { api.stop() }
            let environment = ["STORYBLOK_TOKEN": Self.token]
            let online = try await Executable.run(["build", "--api-url", url.absoluteString, "--output", "online"], in: workspace.url, environment: environment)
            #expect(online.status == 0, "\(online.stderr)")
            Self.assertNoToken(online)
            let pull = try await Executable.run(["pull", "--api-url", url.absoluteString, "--to", "pulled"], in: workspace.url, environment: environment)
            #expect(pull.status == 0, "\(pull.stderr)")
            #expect(pull.stdout.hasPrefix("Pulled 30 stories into pulled in "), "\(pull.stdout)")
            Self.assertNoToken(pull)
            let offline = try await Executable.run(["build", "--source", "pulled", "--output", "offline"], in: workspace.url, environment: environment)
            #expect(offline.status == 0, "\(offline.stderr)")
            let onlineFiles = try BuildEndToEndTests.allFiles(in: workspace.path("online"))
            #expect(onlineFiles.count > 20)
            // The blog's posts, which no story links by hand, come from its listing: `starts_with`.
            #expect(api.requests(to: "stories").contains { $0.query["starts_with"] == "blog/" && $0.query["per_page"] == "100" })
            #expect(onlineFiles["blog/page/2/index.html"] != nil && onlineFiles["blog/feed.xml"] != nil)
            #expect(onlineFiles == (try BuildEndToEndTests.allFiles(in: workspace.path("offline"))))
            for (path, data) in onlineFiles {
                #expect(!String(decoding: data, as: UTF8.self).contains(Self.token), "\(path) holds the token")
            }
        }

        @Test("a rejected token fails at once with a clear message that does not show it")
        func rejectedToken() async throws {
            let (workspace, api, url) = try Self.demoWithAPI()
            defer { api.stop() }
            let result = try await Executable.run(["build", "--api-url", url.absoluteString, "--token", "sk-wrong-123456"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("the access token was rejected (is it a preview token for draft builds?)"), "\(result.stderr)")
            #expect(!result.stderr.contains("sk-wrong-123456"))
            #expect(api.requests.count == 1)
        }

        @Test("with --fallback, an unreachable API builds from the pulled folder with a warning")
        func fallback() async throws {
            let (workspace, api, url) = try Self.demoWithAPI()
            let environment = ["STORYBLOK_TOKEN": Self.token]
            let pull = try await Executable.run(["pull", "--api-url", url.absoluteString, "--to", "pulled"], in: workspace.url, environment: environment)
            #expect(pull.status == 0, "\(pull.stderr)")
            api.stop()
            let result = try await Executable.run(
                ["build", "--api-url", url.absoluteString, "--fallback", "pulled"], in: workspace.url, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("warning: could not reach the API"), "\(result.stderr)")
            #expect(result.stderr.contains("built from the pulled folder 'pulled' instead"))
            #expect(workspace.exists("Output/index.html"))
            Self.assertNoToken(result)
        }

        @Test("pull refuses a non-empty folder it did not make unless --force")
        func pullRefusesForeignFolder() async throws {
            let (workspace, api, url) = try Self.demoWithAPI()
            defer { api.stop() }
            try workspace.write("notes/todo.txt", "mine")
            let environment = ["STORYBLOK_TOKEN": Self.token]
            let refused = try await Executable.run(["pull", "--api-url", url.absoluteString, "--to", "notes"], in: workspace.url, environment: environment)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("is not empty and was not made by pull"), "\(refused.stderr)")
            let forced = try await Executable.run(["pull", "--api-url", url.absoluteString, "--to", "notes", "--force"], in: workspace.url, environment: environment)
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(try workspace.read("notes/todo.txt") == "mine")
            #expect(workspace.exists("notes/home.json"))
        }

        @Test("pull never falls back to a folder: an unreachable API fails it, even with a fallback configured")
        func pullDoesNotFallBack() async throws {
            let (workspace, api, url) = try Self.demoWithAPI()
            api.stop()
            try workspace.write("storysite.json", #"{"fallback": "Content"}"#)
            let result = try await Executable.run(
                ["pull", "--api-url", url.absoluteString, "--to", "pulled"], in: workspace.url, environment: ["STORYBLOK_TOKEN": Self.token])
            #expect(result.status == 1, "\(result.stdout)")
            #expect(!workspace.exists("pulled"))
            Self.assertNoToken(result)
        }

        @Test("a token pasted as an argument by mistake is not echoed in the usage error")
        func tokenInUsageError() async throws {
            let workspace = try TemporaryFolder()
            let result = try await Executable.run(["pull", "--to", "x", Self.token], in: workspace.url, environment: ["STORYBLOK_TOKEN": Self.token])
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: Unexpected argument '***'"), "\(result.stderr)")
        }

        @Test("API settings without a token are a usage error")
        func settingsWithoutToken() async throws {
            let workspace = try TemporaryFolder()
            let result = try await Executable.run(["build", "--region", "us"], in: workspace.url, environment: ["STORYBLOK_TOKEN": ""])
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: '--region' reads the Storyblok API, which needs an access token: set STORYBLOK_TOKEN or pass --token\n"))
            let pull = try await Executable.run(["pull", "--to", "x"], in: workspace.url, environment: ["STORYBLOK_TOKEN": ""])
            #expect(pull.status == 64)
        }
    }
}
