import FakeStoryblokAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Preview
import StoryModel
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Drives `storysite serve` with the fake Content Delivery API as its source, as an editor's
    /// preview runs: instant start, a new `cv`, webhooks, and the API going down.
    @Suite("storysite serve from the Storyblok API, end to end")
    struct ServeAPIEndToEndTests {
        static let token = StoryblokEndToEndTests.token
        static let aboutID = 604311102
        static let aboutUUID = "736d89fe-a264-470c-98c4-ae7a82690ac4"
        static let original = "We build calm software for small shops."

        /// `serve` reading `api`, started in `workspace`, with `extra` arguments and environment.
        static func serve(
            _ workspace: TemporaryFolder, _ api: FakeStoryblokAPI, _ extra: [String] = [], environment: [String: String] = [:]
        ) throws -> ServeProcess {
            try ServeProcess(
                ["--port", "0", "--api-url", api.baseURL!.absoluteString] + extra, in: workspace.url,
                environment: ["STORYBLOK_TOKEN": token].merging(environment) { _, new in new })
        }

        /// A serve of the demo from a fake API, cold (no last build), once its first build from the
        /// API reloaded the open page; `api` is stopped when `Serving` goes away.
        final class Serving: @unchecked Sendable {
            let workspace: TemporaryFolder
            let api: FakeStoryblokAPI
            let server: ServeProcess
            let address: String
            let events: LoopbackConnection

            init(_ extra: [String], environment: [String: String] = [:]) async throws {
                (workspace, api, _) = try StoryblokEndToEndTests.demoWithAPI()
                server = try ServeAPIEndToEndTests.serve(workspace, api, extra, environment: environment)
                address = try await server.url()
                events = try LoopbackConnection.events(at: address)
                #expect(await ServeAPIEndToEndTests.waitForReloads(events, 1), "\(server.errors)")
            }

            deinit { api.stop() }
        }

        /// The about story as the fake serves it, with `text` for its sentence and published now.
        static func editedAbout(_ api: FakeStoryblokAPI, _ text: String) throws -> Story {
            let story = try #require(api.story(uuid: aboutUUID))
            var raw = story.raw
            let json = JSONValue.object(raw).jsonText().replacingOccurrences(of: "We build calm software", with: text)
            raw = try #require(try JSONValue(parsing: json).objectValue)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            raw["published_at"] = .string(formatter.string(from: Date()))
            return try Story(json: raw)
        }

        /// Serves until `count` builds have reloaded the pages (up to `timeout` seconds).
        static func waitForReloads(_ events: LoopbackConnection, _ count: Int, timeout: Double = 60) async -> Bool {
            await events.read(timeout: timeout) { builds(in: $0) >= count }
        }

        /// How many builds have reloaded the pages, by the latest build number the events name:
        /// serve starts reading the API before the page connects, so a fast first build's reload
        /// may come before the connection does, whose `hello` then names that build.
        static func builds(in events: String) -> Int {
            events.matches(of: /"build":(\d+)/).compactMap { Int($0.1) }.max() ?? 0
        }

        static func post(_ url: String, body: [UInt8], headers: [String: String] = [:]) async throws -> (status: Int, body: String) {
            var request = URLRequest(url: URL(string: url + "_storysite/webhook")!)
            request.httpMethod = "POST"
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            let (data, response) = try await URLSession(configuration: configuration).data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }

        static func assertNoToken(_ server: ServeProcess, _ more: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(!(server.output + server.errors + more).contains(token), sourceLocation: sourceLocation)
        }

        @Test("with a slow API (3 s a request) the last build is served at once, and the fresh page after the crawl")
        func instantStart() async throws {
            let (workspace, api, url) = try StoryblokEndToEndTests.demoWithAPI()
            defer { api.stop() }
            let build = try await Executable.run(["build", "--api-url", url.absoluteString], in: workspace.url, environment: ["STORYBLOK_TOKEN": Self.token])
            #expect(build.status == 0, "\(build.stderr)")
            api.publish([try Self.editedAbout(api, "We build fresh software")])
            api.latency = .seconds(3)
            api.resetLog()

            let server = try Self.serve(workspace, api, ["--poll", "0"])
            let address = try await server.url()
            let events = try LoopbackConnection.events(at: address)
            let first = try await ServeEndToEndTests.get(address + "about/")
            #expect(first.status == 200)
            #expect(first.body.contains(Self.original), "the last build is served while the API, which has the edit, is read")
            #expect(server.output.contains("Starting from the last build while reading the Storyblok space at"), "\(server.output)")

            #expect(await Self.waitForReloads(events, 1, timeout: 120), "\(server.errors)")
            let fresh = try await ServeEndToEndTests.get(address + "about/")
            #expect(fresh.body.contains("We build fresh software for small shops."))
            #expect(server.output.contains("Built "), "\(server.output)")
            Self.assertNoToken(server)
            #expect(await server.terminate() == 0)
        }

        @Test("a new cv fetches only the stories changed since, and rebuilds incrementally")
        func pollsCacheVersion() async throws {
            let serving = try await Serving(["--poll", "1"])
            let (api, server, address, events) = (serving.api, serving.server, serving.address, serving.events)
            #expect(try await ServeEndToEndTests.get(address + "about/").body.contains(Self.original))

            api.resetLog()
            api.publish([try Self.editedAbout(api, "We build polled software")])
            #expect(await Self.waitForReloads(events, 2, timeout: 20), "\(server.errors)")
            #expect(try await ServeEndToEndTests.get(address + "about/").body.contains("We build polled software"))
            // One request per language of the demo (English and German), each for what changed.
            let stories = api.requests(to: "stories")
            #expect(stories.map { $0.query["language"] ?? "default" }.sorted() == ["de", "default"], "\(stories)")
            #expect(stories.allSatisfy { $0.query["published_at_gt"] != nil && $0.endpoint == "stories" })
            #expect(server.output.contains("Fetched 1 changed story (about)"), "\(server.output)")
            #expect(server.output.contains("1 written"), "\(server.output)")
            Self.assertNoToken(server)
            #expect(await server.terminate() == 0)
        }

        @Test("a signed webhook fetches its story and rebuilds; a bad signature, a broken body or an unknown action changes nothing")
        func webhooks() async throws {
            let secret = "whsec-4f3e2d1c"
            let serving = try await Serving(["--poll", "0"], environment: ["STORYBLOK_WEBHOOK_SECRET": secret])
            let (api, server, address, events) = (serving.api, serving.server, serving.address, serving.events)
            api.publish([try Self.editedAbout(api, "We build hooked software")])
            api.resetLog()

            let payload = Array(#"{"text":"The user published the Story About (about)","action":"published","space_id":1,"story_id":\#(Self.aboutID),"full_slug":"about"}"#.utf8)
            let forged = try await Self.post(address, body: payload, headers: ["webhook-signature": WebhookSignature.hex(of: payload, secret: "guess")])
            #expect(forged.status == 401)
            let unsigned = try await Self.post(address, body: payload)
            #expect(unsigned.status == 401)
            let notJSON = Array("action=published".utf8)
            #expect(try await Self.post(address, body: notJSON, headers: ["webhook-signature": WebhookSignature.hex(of: notJSON, secret: secret)]).status == 400)
            let asset = Array(#"{"action":"entries_updated","space_id":1,"datasource_id":5}"#.utf8)
            #expect(try await Self.post(address, body: asset, headers: ["webhook-signature": WebhookSignature.hex(of: asset, secret: secret)]).status == 422)
            try await Task.sleep(for: .milliseconds(300))
            #expect(api.requests.isEmpty, "refused webhooks must fetch nothing: \(api.requests)")
            #expect(try await ServeEndToEndTests.get(address + "about/").body.contains(Self.original))
            #expect(server.errors.contains("webhook refused (HTTP 401)"))

            let signed = try await Self.post(address, body: payload, headers: ["webhook-signature": WebhookSignature.hex(of: payload, secret: secret)])
            #expect(signed.status == 202)
            #expect(await Self.waitForReloads(events, 2, timeout: 20), "\(server.errors)")
            #expect(try await ServeEndToEndTests.get(address + "about/").body.contains("We build hooked software"))
            let fetched = api.requests(to: "stories")
            #expect(fetched.map(\.endpoint) == ["stories/\(Self.aboutID)", "stories/\(Self.aboutID)"], "one per language")
            #expect(fetched.map { $0.query["language"] ?? "default" }.sorted() == ["de", "default"])

            let unknown = Array(#"{"action":"published","space_id":1,"story_id":999}"#.utf8)
            #expect(try await Self.post(address, body: unknown, headers: ["webhook-signature": WebhookSignature.hex(of: unknown, secret: secret)]).status == 202)
            #expect(await server.printsError("warning: the API knows no story with id 999; nothing changed for it"))
            #expect(Self.builds(in: events.text) == 2)
            #expect(!(server.output + server.errors).contains(secret))
            Self.assertNoToken(server)
            #expect(await server.terminate() == 0)
        }

        @Test("a deleted story leaves the site when its webhook comes; without a secret, loopback webhooks are heard")
        func deletedStory() async throws {
            let serving = try await Serving(["--poll", "0"])
            let (api, server, address, events) = (serving.api, serving.server, serving.address, serving.events)
            api.delete(uuid: Self.aboutUUID)
            let payload = Array(#"{"action":"deleted","space_id":1,"story_id":\#(Self.aboutID)}"#.utf8)
            #expect(try await Self.post(address, body: payload).status == 202)
            #expect(await Self.waitForReloads(events, 2, timeout: 20), "\(server.errors)")
            #expect(try await ServeEndToEndTests.get(address + "about/").status == 404)
            #expect(await server.terminate() == 0)
        }

        @Test("when the API goes down while serving, the site stays and the overlay shows the error and the next try")
        func apiDown() async throws {
            let serving = try await Serving(["--poll", "1"])
            let (api, server, address, events) = (serving.api, serving.server, serving.address, serving.events)

            api.outage = .serverError
            #expect(await events.read(timeout: 30) { $0.contains("event: error") && $0.contains("HTTP 500") && $0.contains("trying again at") })
            let stale = try await ServeEndToEndTests.get(address + "about/")
            #expect(stale.status == 200 && stale.body.contains(Self.original))
            #expect(await server.printsError("still serving the last good site"))
            let late = try LoopbackConnection.events(at: address)
            #expect(await late.read(timeout: 10) { $0.contains("event: error") })
            Self.assertNoToken(server, events.text + late.text)

            api.outage = nil
            #expect(await Self.waitForReloads(events, 2, timeout: 30), "the pages reload once the API answers again")
            #expect(await server.terminate() == 0)
        }

        @Test("--poll without the API, or with a folder to serve, is a usage error")
        func pollNeedsAPI() async throws {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            let noToken = try await Executable.run(["serve", "--poll", "5"], in: workspace.url, environment: ["STORYBLOK_TOKEN": ""])
            #expect(noToken.status == 64)
            #expect(noToken.stderr.contains("'--poll' reads the Storyblok API, which needs an access token"), "\(noToken.stderr)")
            let folder = try await Executable.run(["serve", "Templates", "--poll", "5"], in: workspace.url)
            #expect(folder.status == 64)
            #expect(!workspace.exists("Output"))
        }

        @Test("a first start with the API down serves the pulled fallback folder and keeps trying the API")
        func fallbackStart() async throws {
            let (workspace, api, url) = try StoryblokEndToEndTests.demoWithAPI()
            defer { api.stop() }
            let pull = try await Executable.run(["pull", "--api-url", url.absoluteString, "--to", "pulled"], in: workspace.url, environment: ["STORYBLOK_TOKEN": Self.token])
            #expect(pull.status == 0, "\(pull.stderr)")
            api.outage = .serverError
            let server = try Self.serve(workspace, api, ["--poll", "0", "--fallback", "pulled"])
            let address = try await server.url()
            #expect(try await ServeEndToEndTests.get(address + "about/").body.contains(Self.original))
            #expect(server.output.contains("Starting from the pulled folder 'pulled' while reading"), "\(server.output)")
            #expect(await server.printsError("trying again at", timeout: 20))
            let events = try LoopbackConnection.events(at: address)
            #expect(await events.read(timeout: 10) { $0.contains("event: hello") })
            api.outage = nil
            #expect(await Self.waitForReloads(events, 1, timeout: 40), "\(server.errors)")
            #expect(await server.terminate() == 0)
        }
    }
}
