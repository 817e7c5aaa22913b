// Builds one synthetic space with storysite and the same pages with Hugo, in the same run,
// several times each, and prints wall time (median), ms per page, peak RSS and the ratio
// storysite / Hugo; then storysite's no-change, template-edited and one-story-changed rebuilds,
// the same one-story edit saved under `storysite serve`, timed from the save to the reload event,
// and rebuilds after one link led elsewhere and after one story added.
//
//   swift run -c release build-benchmark [--stories 10000] [--runs 3] [--jobs N] [--workspace DIR] [--listing] [--languages N]
//                                        [--theme plain|heavy]
//
// With --theme heavy, both tools build the pages with a heavier theme than the default `plain`:
// a 40-item navigation on every page (storysite's from the global story, `Content/global.json`;
// Hugo's from `[[menus.main]]`), every block and grid column through a wrapping partial, and
// breadcrumbs and backlinks as before (see HeavyTheme.swift for what differs between the two).
//
// With --listing, the `posts/` folder gets a start page that lists every post, newest first, 10
// to a page (1,000 pagination pages for 10,000 stories), with an Atom feed, and Hugo builds the
// same with its own pagination and RSS; the last figure is then the cost of publishing a post.
//
// With --languages N (N > 1), the space is in N languages, `en` (the default, at the root), `de`,
// `fr`, `es`, `it`…: every story's visible text fields translated beside their defaults
// (`title__i18n__de`) and its translated paths in `translated_slugs` (`posts/de-post-12`), so the
// site has N versions of every page (see SyntheticSpace/Languages.swift); Hugo builds the same
// with its multilingual mode. The one-language build of the same stories (untranslated, as
// without the option) runs in the same runs, interleaved, in `<workspace>/one-language/`, and
// the ratio N / 1 is printed for both: the machine's speed drifts by tens of percent from minute
// to minute, so only runs close in time compare.
//
// storysite runs as a child process of this executable (`build-benchmark storysite build …`),
// so its peak RSS is measured the same way as Hugo's, with /usr/bin/time; it links the same
// allocator as the storysite executable. Hugo is skipped with a message when it is not
// installed (`apt-get install hugo`).
#if canImport(CJemalloc)
import CJemalloc
#endif
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
    /// The site's languages, the default first (one: a site without languages).
    var languages = ["en"]
    /// The templates both tools build with (`--theme`).
    var theme = Theme.plain

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
            if option == "--theme" {
                guard let named = Theme(rawValue: value) else {
                    throw BenchmarkError("--theme: one of \(Theme.allCases.map(\.rawValue).joined(separator: ", ")), not '\(value)'")
                }
                theme = named
                continue
            }
            guard let number = Int(value), number > 0 else { throw BenchmarkError("\(option) needs a positive number, not '\(value)'") }
            switch option {
            case "--stories": stories = number
            case "--runs": runs = number
            case "--jobs": jobs = number
            case "--languages":
                guard let codes = SyntheticSpace.languages(number) else {
                    throw BenchmarkError("--languages: at most \(SyntheticSpace.languageCodes.count) (\(SyntheticSpace.languageCodes.joined(separator: ", ")))")
                }
                languages = codes
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

/// The highest peak RSS of `runs`: `232 MB`.
func peakRSS(_ runs: [Measurement]) -> String {
    runs.compactMap(\.peakMB).max().map { String(format: "%.0f MB", $0) } ?? "n/a (no /usr/bin/time)"
}

func line(_ name: String, _ runs: [Measurement], pages: Int) -> String {
    let wall = median(runs.map(\.seconds))
    let peak = peakRSS(runs)
    let cpu = runs.compactMap(\.cpuSeconds)
    let cpuText = cpu.isEmpty ? "" : String(format: "   CPU %5.2f s", median(cpu))
    return name.padding(toLength: 10, withPad: " ", startingAt: 0)
        + String(format: "wall %6.2f s (median of %d)   %6.3f ms/page", wall, runs.count, wall * 1000 / Double(pages))
        + cpuText + "   peak RSS " + peak
}

/// `storysite / hugo: wall …×, peak RSS …×`.
func comparison(_ ours: [Measurement], _ theirs: [Measurement]) -> String {
    let rss = ours.compactMap(\.peakMB).max().flatMap { mine in theirs.compactMap(\.peakMB).max().map { mine / $0 } }
    return String(format: "ratio storysite / hugo: wall %.3f×, peak RSS %@", median(ours.map(\.seconds)) / median(theirs.map(\.seconds)),
                  rss.map { String(format: "%.3f×", $0) } ?? "n/a")
}

/// `wall X.XX×, CPU X.XX×`: the medians of the ratios of runs made one after the other, `runs[i]`
/// against `baseline[i]` (the speed of the machine drifts between runs further apart).
func pairedRatio(_ runs: [Measurement], _ baseline: [Measurement]) -> String {
    let wall = median(zip(runs, baseline).map { $0.seconds / $1.seconds })
    let cpu = zip(runs, baseline).compactMap { run, base in run.cpuSeconds.flatMap { mine in base.cpuSeconds.map { mine / $0 } } }
    return String(format: "wall %.2f×, CPU %@", wall, cpu.isEmpty ? "n/a" : String(format: "%.2f×", median(cpu)))
}

/// One site to build: storysite's workspace (`Content/`, `Templates/`, `storysite.json`,
/// `Output/`) and Hugo's site (`hugo/`), in some languages.
struct Site {
    var folder: URL
    var languages: [String]
    var stories: Int

    var content: URL { folder.appendingPathComponent("Content", isDirectory: true) }
    var output: URL { folder.appendingPathComponent("Output", isDirectory: true) }
    var hugoSite: URL { folder.appendingPathComponent("hugo", isDirectory: true) }
    /// Every story's page in every language (listing pages not counted).
    var pages: Int { stories * languages.count }

    /// Writes the space, the theme (with the heavy one, the global story it reads the
    /// navigation from), the settings and, with `hugo`, Hugo's site.
    func write(listing: Bool, hugo: Bool, theme: Theme) throws {
        try SyntheticSpace.write(stories: stories, to: content, languages: languages)
        try theme.write(to: folder.appendingPathComponent("Templates", isDirectory: true))
        if theme == .heavy {
            try Data(SyntheticSpace.globalStoryJSON(of: stories).utf8).write(to: content.appendingPathComponent("global.json"))
        }
        if listing { try Data(SyntheticSpace.postsStartPageJSON.utf8).write(to: content.appendingPathComponent("posts/index.json")) }
        if let settings = Theme.settings(listing: listing, languages: languages) {
            try Data(settings.utf8).write(to: folder.appendingPathComponent("storysite.json"))
        }
        if hugo { try HugoSite.write(stories: stories, to: hugoSite, listing: listing, languages: languages, theme: theme) }
    }

    func hugoCommand(_ hugo: String) -> [String] {
        [hugo, "--quiet", "--source", hugoSite.path, "--destination", hugoSite.appendingPathComponent("public").path]
    }

    /// The page of story `index` in `language`, in `Output/`.
    func pageFile(_ index: Int, in language: String) -> URL {
        let prefix = language == languages.first ? "" : language + "/"
        return output.appendingPathComponent(prefix + SyntheticSpace.path(index, in: language, languages: languages) + "/index.html")
    }
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("build-benchmark: \(error)\nusage: build-benchmark [--stories N] [--runs N] [--jobs N] [--workspace DIR] [--listing] [--languages N] [--theme plain|heavy]\n".utf8))
    exit(64)
}

do {
    let fileManager = FileManager.default
    let workspace = options.workspace.map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? fileManager.temporaryDirectory.appendingPathComponent("build-benchmark-\(getpid())", isDirectory: true)
    defer { if options.workspace == nil { try? fileManager.removeItem(at: workspace) } }
    try? fileManager.removeItem(at: workspace)
    let hugo = executable(named: "hugo")
    let site = Site(folder: workspace, languages: options.languages, stories: options.stories)
    try site.write(listing: options.listing, hugo: hugo != nil, theme: options.theme)
    let content = site.content
    let languageCount = options.languages.count
    // The same stories in one language, untranslated: the build the languages are measured against.
    let oneLanguage = languageCount > 1
        ? Site(folder: workspace.appendingPathComponent("one-language", isDirectory: true), languages: [options.languages[0]], stories: options.stories)
        : nil
    try oneLanguage?.write(listing: options.listing, hugo: hugo != nil, theme: options.theme)

    let me = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    let storysite = [me, "storysite", "build", "--base-url", "https://bench.example/"]
        + (options.jobs.map { ["--jobs", String($0)] } ?? [])
    let languagesText = languageCount > 1 ? " in \(languageCount) languages (\(options.languages.joined(separator: ", ")))" : ""
    print("build-benchmark: \(options.stories) stories\(languagesText)\(options.listing ? " listed 10 to a page with a feed" : ""), theme \(options.theme.rawValue), \(options.runs) runs, \(ProcessInfo.processInfo.activeProcessorCount) cores, storysite \(StorySite.version)")
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
    // Measurements by site: the site itself first, then the one-language build.
    let sites = [site] + (oneLanguage.map { [$0] } ?? [])
    var ours = [[Measurement]](repeating: [], count: sites.count)
    var theirs = [[Measurement]](repeating: [], count: sites.count)
    for run in 1...options.runs {
        // The two sites alternate which goes first, so neither always follows the other.
        let order = run % 2 == 1 ? Array(sites.indices) : sites.indices.reversed()
        for index in order {
            try setAsideItem(at: sites[index].output)
            ours[index].append(try Measurement.run(storysite, in: sites[index].folder))
        }
        if let hugo {
            for index in order {
                let hugoSite = sites[index].hugoSite
                try setAsideItem(at: hugoSite.appendingPathComponent("public"))
                try setAsideItem(at: hugoSite.appendingPathComponent("resources"))
                theirs[index].append(try Measurement.run(sites[index].hugoCommand(hugo), in: hugoSite))
            }
        }
    }
    try? fileManager.removeItem(at: setAside)
    let full = median(ours[0].map(\.seconds))
    print("full build" + (languageCount > 1 ? ", \(languageCount) languages: \(site.pages) pages" : ""))
    print(line("storysite", ours[0], pages: site.pages))
    if !theirs[0].isEmpty {
        print(line("hugo", theirs[0], pages: site.pages))
        print(comparison(ours[0], theirs[0]))
    }
    print("  last full build: \(writeCounts(ours[0].last!.output))")
    if let oneLanguage {
        print("full build, 1 language (the same stories untranslated, runs interleaved with the above): \(oneLanguage.pages) pages")
        print(line("storysite", ours[1], pages: oneLanguage.pages))
        if !theirs[1].isEmpty {
            print(line("hugo", theirs[1], pages: oneLanguage.pages))
            print(comparison(ours[1], theirs[1]))
        }
        print("languages \(languageCount) / 1: \(pairedRatio(ours[0], ours[1]))")
        if !theirs[1].isEmpty { print("hugo: languages \(languageCount) / 1: \(pairedRatio(theirs[0], theirs[1]))") }
    }

    var unchanged: [Measurement] = []
    for _ in 1...options.runs { unchanged.append(try Measurement.run(storysite, in: workspace)) }
    let noChange = median(unchanged.map(\.seconds))
    print(String(format: "no-change rebuild: %.3f s (%.3f× full build) %@", noChange, noChange / full, writeCounts(unchanged.last!.output)))

    // The layout edited each time, so that every page renders again and changes, over the
    // previous build's output and cache: the rebuild after a theme tweak.
    let layout = workspace.appendingPathComponent("Templates/layout.mustache")
    var retemplated: [Measurement] = []
    for run in 1...options.runs {
        try Data((try String(contentsOf: layout, encoding: .utf8) + "<!-- edit \(run) -->\n").utf8).write(to: layout)
        retemplated.append(try Measurement.run(storysite, in: workspace))
    }
    let templateEdit = median(retemplated.map(\.seconds))
    print(String(format: "template-edited rebuild: %.3f s (%.3f× full build), peak RSS %@ %@", templateEdit, templateEdit / full,
                 peakRSS(retemplated), writeCounts(retemplated.last!.output)))

    if options.listing {
        // A new post, the newest, each time: it heads the listing and moves every other post down.
        var published: [Measurement] = []
        for run in 0..<options.runs {
            let index = options.stories + run
            let page = SyntheticSpace.page(index, of: options.stories)
            try Data(SyntheticSpace.storyJSON(page, languages: options.languages).utf8)
                .write(to: content.appendingPathComponent("posts/new-\(index).json"))
            published.append(try Measurement.run(storysite, in: workspace))
        }
        let publish = median(published.map(\.seconds))
        print(String(format: "publish-one-post rebuild: %.3f s (%.3f× full build) %@", publish, publish / full, writeCounts(published.last!.output)))
    } else {
        // One story's subtitle changes each time (not its name, so its backlinks stay the same):
        // its default value, which is its page's in the default language and in every language
        // that leaves it untranslated (see SyntheticSpace.subtitleFallsBack). With the heavy
        // theme story 5 is in the navigation on every page, which shows its name only: the edit
        // still changes its own page alone, so this measures a one-page change. A change to its
        // name would change every page (and the run would measure a full render).
        let story = 5
        let edited = content.appendingPathComponent("posts/0/post-\(story).json")
        let subtitle = SyntheticSpace.page(story, of: options.stories).subtitle
        let changing = options.languages.enumerated().filter { number, language in
            number == 0 || SyntheticSpace.subtitleFallsBack(story, in: language, languages: options.languages)
        }.map(\.element)
        /// Puts `words` after the story's default subtitle in its file.
        func editSubtitle(adding words: String) throws {
            let text = try String(contentsOf: edited, encoding: .utf8)
            let replaced = text.replacingOccurrences(of: "\"subtitle\": \"\(subtitle)", with: "\"subtitle\": \"\(subtitle) \(words)")
            guard replaced != text else { throw BenchmarkError("could not edit \(edited.path)") }
            try Data(replaced.utf8).write(to: edited)
        }
        var oneChange: [Measurement] = []
        var wrong: [String] = []
        for run in 1...options.runs {
            try editSubtitle(adding: "edit \(run)")
            oneChange.append(try Measurement.run(storysite, in: workspace))
            // The edit shows in the languages that fall back to it, and in no other.
            for language in options.languages {
                let page = site.pageFile(story, in: language)
                let shows = (try? String(contentsOf: page, encoding: .utf8))?.contains("\(subtitle) edit \(run)") ?? false
                if shows != changing.contains(language) {
                    wrong.append("run \(run): \(page.path) \(shows ? "shows" : "does not show") the edit")
                }
            }
        }
        let changed = median(oneChange.map(\.seconds))
        print(String(format: "one-story-changed rebuild: %.3f s (%.3f× full build) %@", changed, changed / full, writeCounts(oneChange.last!.output))
            + (languageCount > 1 ? "; the story's pages in \(changing.joined(separator: " and ")) change (\(changing.dropFirst().joined(separator: ", ")) falls back to the default subtitle)" : ""))
        for problem in wrong { print("  wrong: \(problem)") }

        // The same edit, saved while `storysite serve` runs: from the save to the reload event.
        let serve = [me, "storysite", "serve", "--port", "0", "--base-url", "https://bench.example/"]
            + (options.jobs.map { ["--jobs", String($0)] } ?? [])
        let reloads = try await ServeReload.measure(serve, in: workspace, runs: options.runs) { run in
            try editSubtitle(adding: "served \(run)")
        }
        print(String(format: "serve, save to reload event: %.3f s (median of %d)", median(reloads), reloads.count))
        let page = site.pageFile(story, in: options.languages[0])
        if !((try? String(contentsOf: page, encoding: .utf8))?.contains("\(subtitle) served \(options.runs)") ?? false) {
            print("  wrong: after the last reload, \(page.path) does not show the edit")
        }

        // Edits that move links, which a build brings up to date without a crawl: one Markdown
        // link of the story led elsewhere each time (its page, and the backlinks of the pages it
        // left and reached, change), and a new story added each time (nothing links to it).
        let markdownLink = try #/\]\(/posts/post-(\d+)\)/#.firstMatch(in: SyntheticSpace.page(story, of: options.stories).markdown)
            .map { Int($0.1)! } ?? 1
        /// The post the link leads to after `run` edits: the one it was written with, then another each time.
        func linkTarget(after run: Int) -> Int { run == 0 ? markdownLink : 1 + (markdownLink + 7 * run) % (options.stories - 1) }
        var relinked: [Measurement] = []
        for run in 1...options.runs {
            let text = try String(contentsOf: edited, encoding: .utf8)
            let replaced = text.replacingOccurrences(
                of: "](/posts/post-\(linkTarget(after: run - 1)))", with: "](/posts/post-\(linkTarget(after: run)))")
            guard replaced != text else { throw BenchmarkError("could not edit a link in \(edited.path)") }
            try Data(replaced.utf8).write(to: edited)
            relinked.append(try Measurement.run(storysite, in: workspace))
            let page = (try? String(contentsOf: site.pageFile(story, in: options.languages[0]), encoding: .utf8)) ?? ""
            if !page.contains("post-\(linkTarget(after: run))/") {
                print("  wrong: run \(run): the page of story \(story) does not link to post-\(linkTarget(after: run))")
            }
        }
        let relink = median(relinked.map(\.seconds))
        print(String(format: "one-link-changed rebuild: %.3f s (%.3f× full build) %@", relink, relink / full, writeCounts(relinked.last!.output)))

        var added: [Measurement] = []
        var addedFiles: [URL] = []
        for run in 0..<options.runs {
            let index = options.stories + run
            let file = content.appendingPathComponent("posts/new-\(index).json")
            try Data(SyntheticSpace.storyJSON(SyntheticSpace.page(index, of: options.stories), languages: options.languages).utf8).write(to: file)
            addedFiles.append(file)
            added.append(try Measurement.run(storysite, in: workspace))
        }
        for file in addedFiles { try FileManager.default.removeItem(at: file) }
        let add = median(added.map(\.seconds))
        print(String(format: "one-story-added rebuild: %.3f s (%.3f× full build) %@", add, add / full, writeCounts(added.last!.output)))
    }
} catch {
    FileHandle.standardError.write(Data("build-benchmark: \(error)\n".utf8))
    exit(1)
}
