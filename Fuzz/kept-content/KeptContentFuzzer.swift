import Dispatch
import Foundation
import StorySource
@testable import StoryCrawl

/// The readers of the kept content on files a build could find after a crash, a bad disk or a
/// hand edit: a valid link graph (``KeptGraph``), reference cache (``ReferenceCache``) or cache of
/// parsed files (``ParsedFileCache``, the stories' heads) of a small site, changed where the input
/// says. Reading never traps; a graph read is brought up to date with the site, a reference cache
/// serves a whole crawl and is written and read back, and the stories a cache of parsed files
/// keeps are loaded from it and read whole.
///
/// The input's first byte picks the file (its remainder by three: the graph, the references,
/// the parsed files); then every
/// three bytes set the byte at a position (two bytes, little-endian, modulo the file's size) to
/// a value; one or two bytes left over cut the file to that share of its size, a byte at the least
/// (Foundation leaks the buffer it reads an empty file into with `.alwaysMapped`; an empty cache
/// file is refused like any other that is cut short).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeptContent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = inputBytes(data, size)
    guard let choice = input.first else { return 0 }
    var file = [fixture.graphFile, fixture.referencesFile, fixture.parsedFilesFile][Int(choice) % 3]
    let patches = input.dropFirst()
    var index = patches.startIndex
    while patches.endIndex - index >= 3 {
        let position = (Int(patches[index]) | Int(patches[index + 1]) << 8) % file.count
        file[position] = patches[index + 2]
        index += 3
    }
    if index < patches.endIndex { file.removeLast(file.count - max(1, file.count * Int(patches[index]) / 256)) }
    try? Data(file).write(to: fixture.scratch)

    switch choice % 3 {
    case 0:
        guard let kept = KeptGraph.reading(fixture.scratch) else { return 0 }
        let update = waitFor { try? await kept.updated(with: fixture.source, references: ReferenceCache(), jobs: 2) }
        if let update {
            _ = update.keepsEdges ? kept.encoded(updatedTo: update.graph) : KeptGraph.encoded(update.graph, entries: kept.entries, baseURL: kept.baseURL)
        }
    case 1:
        let cache = ReferenceCache.reading(fixture.scratch)
        let graph = waitFor { try? await Crawler(source: fixture.source, referenceCache: cache).crawl() }
        require(graph != nil, "the crawl of the fixture failed with a reference cache read from a changed file")
        if let file = cache.encoded() {
            try? Data(file.bytes).write(to: fixture.scratch)
            _ = ReferenceCache.reading(fixture.scratch, writesBack: false).kept(forDigest: "-", baseURL: nil, rootSlug: "home")
        }
    default:
        let cache = ParsedFileCache.reading(fixture.scratch)
        let source = try? LocalFolderSource(folder: fixture.content, jobs: 1, cache: cache)
        let stories = waitFor { try? await source?.allStories() } ?? []
        require(stories.count == 6, "the fixture's six stories loaded with a cache read from a changed file: \(stories.count)")
        for story in stories { _ = (story.head, story.raw, story.field("name")) }
    }
    return 0
}

/// A small site with every kind of edge (a listing, Markdown links with an anchor, a relation, a
/// stale saved slug, a broken link) and a story nothing links to, its kept graph and references.
private struct Fixture: @unchecked Sendable {
    let source: LocalFolderSource
    let graphFile: [UInt8]
    let referencesFile: [UInt8]
    let parsedFilesFile: [UInt8]
    /// The folder of the stories, as a cache of parsed files finds them.
    let content: URL
    /// Where each changed file is written to be read.
    let scratch: URL
}

private let fixture: Fixture = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storysite-fuzz-kept-\(getpid())")
    try! FileManager.default.createDirectory(at: folder.appendingPathComponent("Content/docs/guides"), withIntermediateDirectories: true)
    try! FileManager.default.createDirectory(at: folder.appendingPathComponent("Content/tags"), withIntermediateDirectories: true)
    func link(_ id: String, cached: String = "") -> String {
        #"{"fieldtype": "multilink", "linktype": "story", "id": "\#(id)", "url": "", "cached_url": "\#(cached)"}"#
    }
    let tag = "0b87cb6f-b089-4dd2-a1e3-87f9427d0700"
    let stories = [
        ("home", "u-home", "home", #""nav": [{"_uid": "b", "component": "button", "link": \#(link("u-docs", cached: "old-docs/"))}], "broken": \#(link("u-gone"))"#),
        ("docs/index", "u-docs", "docs/", #""text": "[setup](./guides/setup)""#),
        ("docs/guides/setup", "u-setup", "docs/guides/setup", #""see": "[faq](../faq#q1)", "tags": ["\#(tag)"]"#),
        ("docs/faq", "u-faq", "docs/faq", #""text": "faq""#),
        ("tags/web", tag, "tags/web", #""text": "web""#),
        ("idea", "u-idea", "drafts/idea", #""text": "an idea""#),
    ]
    for (file, uuid, slug, fields) in stories {
        let text = #"{"uuid": "\#(uuid)", "full_slug": "\#(slug)", "content": {"_uid": "r-\#(uuid)", "component": "page", \#(fields)}}"#
        try! Data(text.utf8).write(to: folder.appendingPathComponent("Content/\(file).json"))
    }
    let parsedFiles = ParsedFileCache()
    let source = try! LocalFolderSource(folder: folder.appendingPathComponent("Content"), cache: parsedFiles)
    let references = ReferenceCache.reading(folder.appendingPathComponent("none"))
    let graph = waitFor { try! await Crawler(source: source, referenceCache: references).crawl() }
    return Fixture(
        source: source, graphFile: KeptGraph.encoded(graph, entries: ["home"], baseURL: nil)!.bytes,
        referencesFile: references.encoded()!.bytes, parsedFilesFile: parsedFiles.encoded()!.bytes,
        content: folder.appendingPathComponent("Content"), scratch: folder.appendingPathComponent("kept"))
}()

/// The result of `work`, waited for on this thread (libFuzzer calls in synchronously).
private func waitFor<Result>(_ work: @escaping @Sendable () async -> Result) -> Result {
    let box = ResultBox<Result>()
    Task {
        box.value = await work()
        box.done.signal()
    }
    box.done.wait()
    return box.value!
}

/// Where a task leaves its result for a thread that waits for it.
private final class ResultBox<Result>: @unchecked Sendable {
    // Safe to share: written once before `done` is signalled, read only after it.
    var value: Result?
    let done = DispatchSemaphore(value: 0)
}
