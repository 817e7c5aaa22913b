// Builds one synthetic space with storysite and the same pages with Hugo, in the same run,
// several times each, and prints wall time (median), ms per page, peak RSS and the ratio
// storysite / Hugo; then storysite's no-change and one-story-changed rebuilds.
//
//   swift run -c release build-benchmark [--stories 10000] [--runs 3] [--jobs N] [--workspace DIR] [--listing]
//
// With --listing, the `posts/` folder gets a start page that lists every post, newest first, 10
// to a page (1,000 pagination pages for 10,000 stories), with an Atom feed, and Hugo builds the
// same with its own pagination and RSS; the last figure is then the cost of publishing a post.
//
// storysite runs as a child process of this executable (`build-benchmark storysite build …`),
// so its peak RSS is measured the same way as Hugo's, with /usr/bin/time; it links the same
// allocator as the storysite executable. Hugo is skipped with a message when it is not
// installed (`apt-get install hugo`).
import CJemalloc
import Foundation
import StorySiteCLI
import SyntheticSpace

if CommandLine.arguments.dropFirst().first == "storysite" {
    exit(await StorySite.run(arguments: Array(CommandLine.arguments.dropFirst(2))))
}

struct Options {
    var stories = 10_000
    var runs = 3
    var jobs: Int?
    /// A folder to build in and keep, for profiling; by default a temporary one, removed after.
    var workspace: String?
    /// Whether the posts folder is listed, paginated and has a feed.
    var listing = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let option = rest.popFirst() {
            if option == "--listing" {
                listing = true
                continue
            }
            guard let value = rest.popFirst() else { throw BenchmarkError("\(option) needs a value") }
            if option == "--workspace" {
                workspace = value
                continue
            }
            guard let number = Int(value), number > 0 else { throw BenchmarkError("\(option) needs a positive number, not '\(value)'") }
            switch option {
            case "--stories": stories = number
            case "--runs": runs = number
            case "--jobs": jobs = number
            default: throw BenchmarkError("unknown option \(option)")
            }
        }
    }
}

/// The full path of `name` on `PATH`, or nil.
func executable(named name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// The counts in storysite's summary line: `(W written, U unchanged, R removed)`.
func writeCounts(_ output: String) -> String {
    guard let range = output.range(of: #"\(\d+ written, \d+ unchanged, \d+ removed\)"#, options: .regularExpression) else {
        return "(no summary)"
    }
    return String(output[range])
}

func line(_ name: String, _ runs: [Measurement], pages: Int) -> String {
    let wall = median(runs.map(\.seconds))
    let peak = runs.compactMap(\.peakMB).max().map { String(format: "%.0f MB", $0) } ?? "n/a (no /usr/bin/time)"
    let cpu = runs.compactMap(\.cpuSeconds)
    let cpuText = cpu.isEmpty ? "" : String(format: "   CPU %5.2f s", median(cpu))
    return name.padding(toLength: 10, withPad: " ", startingAt: 0)
        + String(format: "wall %6.2f s (median of %d)   %6.3f ms/page", wall, runs.count, wall * 1000 / Double(pages))
        + cpuText + "   peak RSS " + peak
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("build-benchmark: \(error)\nusage: build-benchmark [--stories N] [--runs N] [--jobs N] [--workspace DIR] [--listing]\n".utf8))
    exit(64)
}

do {
    let fileManager = FileManager.default
    let workspace = options.workspace.map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? fileManager.temporaryDirectory.appendingPathComponent("build-benchmark-\(getpid())", isDirectory: true)
    defer { if options.workspace == nil { try? fileManager.removeItem(at: workspace) } }
    try? fileManager.removeItem(at: workspace)
    let content = workspace.appendingPathComponent("Content", isDirectory: true)
    let output = workspace.appendingPathComponent("Output", isDirectory: true)
    try SyntheticSpace.write(stories: options.stories, to: content)
    try Theme.write(to: workspace.appendingPathComponent("Templates", isDirectory: true))
    if options.listing {
        try Data(SyntheticSpace.postsStartPageJSON.utf8).write(to: content.appendingPathComponent("posts/index.json"))
        try Data(Theme.listingSettings.utf8).write(to: workspace.appendingPathComponent("storysite.json"))
    }
    let hugo = executable(named: "hugo")
    let hugoSite = workspace.appendingPathComponent("hugo", isDirectory: true)
    if hugo != nil { try HugoSite.write(stories: options.stories, to: hugoSite, listing: options.listing) }

    let me = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    let storysite = [me, "storysite", "build", "--base-url", "https://bench.example/"]
        + (options.jobs.map { ["--jobs", String($0)] } ?? [])
    let hugoCommand = hugo.map { [$0, "--quiet", "--source", hugoSite.path, "--destination", hugoSite.appendingPathComponent("public").path] }
    print("build-benchmark: \(options.stories) stories\(options.listing ? " listed 10 to a page with a feed" : ""), \(options.runs) runs, \(ProcessInfo.processInfo.activeProcessorCount) cores, storysite \(StorySite.version)")
    if hugo == nil { print("hugo: not installed (apt-get install hugo); skipping the comparison") }

    // Each full build starts without an output folder. The previous one is moved aside, not
    // deleted, until the end: on ext4 without a journal (as here), creating files in the seconds
    // after deleting thousands makes the kernel skip every recently freed inode, which charged
    // several seconds of system time to whichever tool ran next.
    let setAside = workspace.appendingPathComponent("set-aside", isDirectory: true)
    var setAsideCount = 0
    func setAsideItem(at url: URL) throws {
        guard fileManager.fileExists(atPath: url.path) else { return }
        try fileManager.createDirectory(at: setAside, withIntermediateDirectories: true)
        setAsideCount += 1
        try fileManager.moveItem(at: url, to: setAside.appendingPathComponent(String(setAsideCount)))
    }
    var ours: [Measurement] = []
    var theirs: [Measurement] = []
    for _ in 1...options.runs {
        try setAsideItem(at: output)
        ours.append(try Measurement.run(storysite, in: workspace))
        if let hugoCommand {
            try setAsideItem(at: hugoSite.appendingPathComponent("public"))
            try setAsideItem(at: hugoSite.appendingPathComponent("resources"))
            theirs.append(try Measurement.run(hugoCommand, in: hugoSite))
        }
    }
    try? fileManager.removeItem(at: setAside)
    let full = median(ours.map(\.seconds))
    print("full build")
    print(line("storysite", ours, pages: options.stories))
    if !theirs.isEmpty {
        print(line("hugo", theirs, pages: options.stories))
        let rss = ours.compactMap(\.peakMB).max().flatMap { mine in theirs.compactMap(\.peakMB).max().map { mine / $0 } }
        print(String(format: "ratio storysite / hugo: wall %.3f×, peak RSS %@", full / median(theirs.map(\.seconds)),
                     rss.map { String(format: "%.3f×", $0) } ?? "n/a"))
    }
    print("  last full build: \(writeCounts(ours.last!.output))")

    var unchanged: [Measurement] = []
    for _ in 1...options.runs { unchanged.append(try Measurement.run(storysite, in: workspace)) }
    let noChange = median(unchanged.map(\.seconds))
    print(String(format: "no-change rebuild: %.3f s (%.3f× full build) %@", noChange, noChange / full, writeCounts(unchanged.last!.output)))

    if options.listing {
        // A new post, the newest, each time: it heads the listing and moves every other post down.
        var published: [Measurement] = []
        for run in 0..<options.runs {
            let index = options.stories + run
            let page = SyntheticSpace.page(index, of: options.stories)
            try Data(SyntheticSpace.storyJSON(page).utf8).write(to: content.appendingPathComponent("posts/new-\(index).json"))
            published.append(try Measurement.run(storysite, in: workspace))
        }
        let publish = median(published.map(\.seconds))
        print(String(format: "publish-one-post rebuild: %.3f s (%.3f× full build) %@", publish, publish / full, writeCounts(published.last!.output)))
    } else {
        // One story's paragraph text changes each time (not its name, so its backlinks stay the same).
        let edited = content.appendingPathComponent("posts/0/post-5.json")
        let subtitle = SyntheticSpace.page(5, of: options.stories).subtitle
        var oneChange: [Measurement] = []
        for run in 1...options.runs {
            let text = try String(contentsOf: edited, encoding: .utf8)
            let replaced = text.replacingOccurrences(of: "\"subtitle\": \"\(subtitle)", with: "\"subtitle\": \"\(subtitle) edit \(run)")
            guard replaced != text else { throw BenchmarkError("could not edit \(edited.path)") }
            try Data(replaced.utf8).write(to: edited)
            oneChange.append(try Measurement.run(storysite, in: workspace))
        }
        let changed = median(oneChange.map(\.seconds))
        print(String(format: "one-story-changed rebuild: %.3f s (%.3f× full build) %@", changed, changed / full, writeCounts(oneChange.last!.output)))
    }
} catch {
    FileHandle.standardError.write(Data("build-benchmark: \(error)\n".utf8))
    exit(1)
}
