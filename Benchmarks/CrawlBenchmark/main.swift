// Measures how long a crawl of a synthetic space takes: reading, parsing and indexing the folder
// (LocalFolderSource) plus extracting every reference and building the link graph (Crawler).
//
//   swift run -c release crawl-benchmark [--stories 10000] [--runs 3] [--folder PATH]
//
// The space is generated into a temporary folder that is removed afterwards, or into --folder,
// which is kept (and reused on later runs when it already holds a space). Files are read from
// the page cache (they were just written), so the figure is CPU work, not disk speed.
import Foundation
import StoryCrawl
import StorySource
import SyntheticSpace

struct Options {
    var stories = 10_000
    var runs = 3
    var folder: URL?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError("\(option) needs a value") }
            switch option {
            case "--stories": stories = try Self.positive(value, for: option)
            case "--runs": runs = try Self.positive(value, for: option)
            case "--folder": folder = URL(fileURLWithPath: value, isDirectory: true)
            default: throw UsageError("unknown option \(option)")
            }
        }
    }

    private static func positive(_ text: String, for option: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw UsageError("\(option) needs a positive number, not '\(text)'") }
        return value
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The CPU time this process has used so far (all threads, user and system).
func processorSeconds() -> Double {
    Double(clock()) / Double(CLOCKS_PER_SEC)
}

func folderSize(_ folder: URL) -> Int {
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])
    return (files?.compactMap { ($0 as? URL).flatMap { try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize } } ?? []).reduce(0, +)
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("crawl-benchmark: \(error)\nusage: crawl-benchmark [--stories N] [--runs N] [--folder PATH]\n".utf8))
    exit(64)
}

let folder = options.folder ?? FileManager.default.temporaryDirectory
    .appendingPathComponent("crawl-benchmark-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
defer { if options.folder == nil { try? FileManager.default.removeItem(at: folder) } }

let timer = ContinuousClock()
let megabytes: Double
if FileManager.default.fileExists(atPath: folder.appendingPathComponent("home.json").path) {
    megabytes = Double(folderSize(folder)) / 1e6
    print("using the space already in \(folder.path)")
} else {
    let start = timer.now
    megabytes = Double(try SyntheticSpace.write(stories: options.stories, to: folder)) / 1e6
    print(String(format: "generated %d stories (%.1f MB) in %@ in %.2f s",
                 options.stories, megabytes, folder.path, seconds(timer.now - start)))
}

var best: (total: Double, load: Double, crawl: Double, processor: Double)?
var graph: LinkGraph?
for run in 1...options.runs {
    graph = nil
    let processorStart = processorSeconds()
    let start = timer.now
    let source = try LocalFolderSource(folder: folder)
    let loaded = timer.now
    let result = try await Crawler(source: source).crawl()
    let done = timer.now
    let times = (total: seconds(done - start), load: seconds(loaded - start), crawl: seconds(done - loaded),
                 processor: processorSeconds() - processorStart)
    print(String(format: "run %d: %.3f s (read+parse+index %.3f s, extract+graph %.3f s), %.3f s of CPU",
                 run, times.total, times.load, times.crawl, times.processor))
    if best == nil || times.total < best!.total { best = times }
    graph = result
}

let result = graph!
let count = result.stories.count
print(String(format: "graph: %d stories reached, %d levels, %d edges, %d unresolved, %d orphans",
             count, (result.stories.last?.depth ?? 0) + 1, result.edges.count, result.unresolvedEdges.count, result.orphans.count))
print(String(format: "crawl: %d stories (%.1f MB) in %.2f s (read+parse+extract), %.0f µs per story, %.2f s of CPU on %d cores",
             count, megabytes, best!.total, best!.total / Double(max(count, 1)) * 1e6, best!.processor,
             ProcessInfo.processInfo.activeProcessorCount))
