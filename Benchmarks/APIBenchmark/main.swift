// Crawls a synthetic space through the fake Content Delivery API, as a build from Storyblok
// would: 30 ms per answer and the documented rate limits enforced (429 beyond them).
//
//   swift run -c release api-benchmark [--stories 10000] [--latency-ms 30]
//
// Prints the requests sent (by endpoint, and any the fake refused or failed), the seconds the
// crawl took and the stories reached. Target for 10,000 stories: at most 450 requests and 10 s;
// the limits alone put the floor near 8 s (400 lists of 25 at 50 a second).
import FakeStoryblokAPI
import Foundation
import StoryCrawl
import StoryModel
import StorySource
import SyntheticSpace

struct UsageError: Error, CustomStringConvertible {
    var description: String
}

func options(_ arguments: [String]) throws -> (stories: Int, latency: Int) {
    var result = (stories: 10_000, latency: 30)
    var rest = arguments[...]
    while let option = rest.popFirst() {
        guard let text = rest.popFirst(), let value = Int(text), value >= 0 else {
            throw UsageError(description: "\(option) needs a number")
        }
        switch option {
        case "--stories": result.stories = max(1, value)
        case "--latency-ms": result.latency = value
        default: throw UsageError(description: "unknown option \(option)")
        }
    }
    return result
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let settings: (stories: Int, latency: Int)
do {
    settings = try options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("api-benchmark: \(error)\nusage: api-benchmark [--stories N] [--latency-ms N]\n".utf8))
    exit(64)
}

let clock = ContinuousClock()
let generationStart = clock.now
let stories = try (0..<settings.stories).map { index -> Story in
    let response = try JSONValue(parsing: SyntheticSpace.storyJSON(SyntheticSpace.page(index, of: settings.stories)))
    return try Story(json: response["story"]!.objectValue!)
}
let api = FakeStoryblokAPI(stories: stories)
api.latency = .milliseconds(settings.latency)
api.enforcesRateLimits = true
let baseURL = try api.start()
print(String(format: "serving %d synthetic stories at %@ (%d ms latency, rate limits enforced), prepared in %.2f s",
             stories.count, baseURL.absoluteString, settings.latency, seconds(clock.now - generationStart)))

let source = StoryblokSource(configuration: StoryblokConfiguration(token: api.publicToken, baseURL: baseURL))
let start = clock.now
let graph: LinkGraph
do {
    graph = try await Crawler(source: source, entries: ["home"]).crawl()
} catch {
    print("api-benchmark: the crawl failed: \(error)")
    api.stop()
    exit(1)
}
let elapsed = seconds(clock.now - start)
let requests = api.requests
api.stop()

let byEndpoint = Dictionary(grouping: requests) { request -> String in
    if request.endpoint == "stories" { return request.query["by_uuids"] != nil ? "stories?by_uuids" : "stories?by_slugs" }
    return request.endpoint.hasPrefix("stories/") ? "stories/<single>" : request.endpoint
}.mapValues(\.count).sorted { $0.key < $1.key }
let failures = requests.filter { $0.status != 200 }
print("requests: \(requests.count) (" + byEndpoint.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")")
print("failures: \(failures.count) (429: \(failures.filter { $0.status == 429 }.count))")
print(String(format: "crawl: %d stories reached, %d levels, %d edges, %d unresolved in %.2f s",
             graph.stories.count, (graph.stories.last?.depth ?? 0) + 1, graph.edges.count, graph.unresolvedEdges.count, elapsed))
print(String(format: "api: %d requests, %.2f s, %d failures", requests.count, elapsed, failures.count))
