// Times `storysite serve` with a slow Content Delivery API as its source (the fake API, 3 s per
// answer by default, rate limits enforced), on a synthetic space:
//
//   swift build -c release --product storysite && swift run -c release serve-benchmark \
//       [--stories 10000] [--latency-ms 3000] [--storysite .build/release/storysite]
//
// - cold: no last build; from start until the home page is served (the whole crawl and build);
// - warm: the last build is there; from start until the home page is served (target: < 1 s);
// - webhook: one story published, from POST /_storysite/webhook until open pages get `reload`.
import FakeStoryblokAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StoryModel
import SyntheticSpace
import TestSupport

struct Failure: Error, CustomStringConvertible {
    var description: String
}

struct Settings {
    var stories = 10_000
    var latency = 3000
    var storysite = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("storysite").path
}

func parse(_ arguments: [String]) throws -> Settings {
    var settings = Settings()
    var rest = arguments[...]
    while let option = rest.popFirst() {
        guard let value = rest.popFirst() else { throw Failure(description: "\(option) needs a value") }
        switch option {
        case "--stories": settings.stories = max(1, Int(value) ?? 0)
        case "--latency-ms": settings.latency = max(0, Int(value) ?? 0)
        case "--storysite": settings.storysite = value
        default: throw Failure(description: "unknown option \(option)")
        }
    }
    return settings
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 600
    return URLSession(configuration: configuration)
}()

/// Seconds from `start` until `url` answers 200 with `text` in its body.
func timeToPage(_ url: String, containing text: String, since start: ContinuousClock.Instant) async throws -> Double {
    while true {
        if let (data, response) = try? await session.data(from: URL(string: url)!),
           (response as? HTTPURLResponse)?.statusCode == 200, String(decoding: data, as: UTF8.self).contains(text) {
            return seconds(ContinuousClock.now - start)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// `value`, or a failure when there is none.
func require<Value>(_ value: Value?) throws -> Value {
    guard let value else { throw Failure(description: "the story to edit is missing") }
    return value
}

let settings: Settings
do {
    settings = try parse(Array(CommandLine.arguments.dropFirst()))
    guard FileManager.default.isExecutableFile(atPath: settings.storysite) else {
        throw Failure(description: "no storysite executable at \(settings.storysite); build it first or pass --storysite")
    }
} catch {
    FileHandle.standardError.write(Data("serve-benchmark: \(error)\n".utf8))
    exit(64)
}

let stories = try (0..<settings.stories).map { index -> Story in
    let response = try JSONValue(parsing: SyntheticSpace.storyJSON(SyntheticSpace.page(index, of: settings.stories)))
    return try Story(json: response["story"]!.objectValue!)
}
let api = FakeStoryblokAPI(stories: stories)
api.latency = .milliseconds(settings.latency)
let baseURL = try api.start()
let workspace = try TemporaryFolder()
for (name, text) in SyntheticSpace.theme {
    try workspace.write("Templates/\(name).mustache", text)
}
let arguments = ["--port", "0", "--api-url", baseURL.absoluteString, "--poll", "0"]
let home = SyntheticSpace.page(0, of: settings.stories).title
print("\(stories.count) synthetic stories, \(settings.latency) ms per API answer, rate limits enforced")

// Cold: nothing built yet.
var start = ContinuousClock.now
var serve = try RunningServe([settings.storysite, "serve"] + arguments, in: workspace.url, environment: ["STORYBLOK_TOKEN": api.publicToken])
var url = try await serve.url()
let cold = try await timeToPage(url, containing: home, since: start)
try await serve.wait(for: "Built ")
serve.stop()
print(String(format: "cold start, first page: %.2f s (%d API requests)", cold, api.requests.count))

// Warm: the last build is there.
api.resetLog()
start = ContinuousClock.now
serve = try RunningServe([settings.storysite, "serve"] + arguments, in: workspace.url, environment: ["STORYBLOK_TOKEN": api.publicToken])
url = try await serve.url()
let warm = try await timeToPage(url, containing: home, since: start)
print(String(format: "warm start, first page: %.3f s", warm))
try await serve.wait(for: "Built ")
let crawl = serve.output.split(separator: "\n").first { $0.hasPrefix("Built ") }.map(String.init) ?? ""
print("warm start, background crawl: \(crawl)")

// Webhook: one story published.
let index = settings.stories / 2
let original = try require(api.story(uuid: SyntheticSpace.uuid(index)))
var raw = original.raw
raw["name"] = .string("Edited \(original.name)")
api.publish([try Story(json: raw)])
let events = try LoopbackConnection(port: URL(string: url)!.port!)
events.send("GET /_storysite/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
_ = await events.read(timeout: 10) { $0.contains("event: hello") }
var request = URLRequest(url: URL(string: url + "_storysite/webhook")!)
request.httpMethod = "POST"
request.httpBody = Data(#"{"action":"published","space_id":1,"story_id":\#(original.id!),"text":"benchmark"}"#.utf8)
start = ContinuousClock.now
_ = try await session.data(for: request)
guard await events.read(timeout: 600, until: { $0.contains("event: reload") }) else { throw Failure(description: "no reload: \(serve.output)") }
let webhook = seconds(ContinuousClock.now - start)
let rebuilt = serve.output.split(separator: "\n").last { $0.hasPrefix("Rebuilt ") }.map(String.init) ?? ""
print(String(format: "webhook to reload, one story: %.2f s (%@)", webhook, rebuilt))
serve.stop()
api.stop()

