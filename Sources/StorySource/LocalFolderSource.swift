import Foundation
import ParallelWork
import StoryModel

/// Stories read from a local folder of JSON files, in any nesting of sub-folders: content API
/// responses (`{"story": …}`), bare story objects, CLI exports (`<slug>_<id>.json`) and lists
/// (`{"stories": […]}`).
///
/// The whole folder is read, parsed and indexed once, in parallel, when the source is created;
/// lookups are then dictionary hits. Indexed by `uuid`, by `full_slug` (see ``SlugLookup``) and
/// by numeric `id` (the first story with an id wins).
public struct LocalFolderSource: InMemoryStorySource {
    /// The folder as shown in messages (`Content`).
    public let displayPath: String
    /// The language its stories read in, when they were translated (see ``translated(to:isDefault:jobs:)``).
    public let language: String?
    /// The stories and their keys.
    let index: StoryIndex
    /// The folder's real path, and how its files' paths begin in messages (`Content/`).
    private let root: String
    private let shownPrefix: String

    /// Reads every JSON file under `folder`, parsing on at most `jobs` threads. `displayPath` is
    /// how files are named in messages (default: the folder's path as given, such as `Content`).
    /// With a `cache`, files unchanged since the cache's last load are taken from it. With
    /// `listed`, a listing of the folder taken just before (each entry's path relative to it and
    /// what `lstat` said), the folder is not listed and its files are not `stat`ed again. With
    /// `store`, each story read from a file of its own keeps its content there, not in memory.
    ///
    /// Throws ``SourceProblems`` listing every malformed file, every story missing a required
    /// key, and every duplicate `uuid` or `full_slug` (naming both files).
    public init(
        folder: URL, displayPath: String? = nil, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, cache: ParsedFileCache? = nil,
        listed: [(path: String, stamp: FileStamp)]? = nil, store: TapeStore? = nil
    ) throws(SourceProblems) {
        let shown = displayPath ?? folder.relativePath
        self.displayPath = shown
        language = nil
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw SourceProblems([SourceProblem(file: shown, message: "no such folder; give the folder that holds the story JSON files")])
        }
        let root = folder.standardizedFileURL.path
        self.root = root
        shownPrefix = Self.shownPrefix(shown)
        let paths: [String]
        var stamps: [ParsedFileCache.Stamp]?
        if let listed, let found = FolderScan.jsonFiles(listed: listed) {
            paths = found.map(\.path)
            stamps = found.map(\.stamp)
        } else {
            do {
                paths = try FolderScan.jsonFiles(in: root)
            } catch {
                throw SourceProblems([SourceProblem(file: shown, message: "cannot list \(error.path): \(error.reason)")])
            }
        }
        let (files, loaded) = Self.load(paths, stamps: stamps, in: root, shownWith: shownPrefix, jobs: jobs, cache: cache, store: store)
        // The cache keeps what was loaded while the stories are indexed: neither needs the other.
        let (_, index) = ParallelWork.both(jobs: jobs, { loaded.map { cache?.keep($0) } }, { StoryIndex(files) })
        if !index.problems.isEmpty { throw SourceProblems(index.problems) }
        self.index = index
    }

    private init(translating folder: LocalFolderSource, to language: String, index: StoryIndex) {
        displayPath = folder.displayPath
        self.language = language
        self.index = index
        root = folder.root
        shownPrefix = folder.shownPrefix
    }

    /// The folder's stories as they read in `language` (field-level translation, see
    /// ``StoryModel/Story/translated(to:isDefault:)``), each translated once, on at most `jobs`
    /// threads, then answered exactly as the folder answers (by `uuid`, numeric `id` and
    /// `full_slug`, folder queries in `full_slug` order). A story keeps its default `full_slug`
    /// in every language, so the content tree, listings and slug lookups are the same in each;
    /// its page path in the language is ``StoryModel/Story/path(in:)``.
    public func translated(to language: String, isDefault: Bool, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) -> LocalFolderSource {
        let stories = index.stories
        let translated = ParallelWork.map(count: stories.count, jobs: jobs) { position in
            stories[position].translated(to: language, isDefault: isDefault)
        }
        return LocalFolderSource(translating: self, to: language, index: index.replacingStories(with: translated))
    }

    /// `Content/`, or with a language `Content/ (de)`.
    public var description: String {
        (displayPath.hasSuffix("/") ? displayPath : displayPath + "/") + (language.map { " (\($0))" } ?? "")
    }

    public func stories(for references: [StoryReference]) async throws -> [StoryReference: Story] {
        var found: [StoryReference: Story] = [:]
        found.reserveCapacity(references.count)
        for reference in references {
            if let story = index.story(for: reference) { found[reference] = story }
        }
        return found
    }

    public func story(for reference: StoryReference) -> Story? {
        index.story(for: reference)
    }

    /// How many stories the folder holds.
    public var storyCount: Int { index.stories.count }

    /// How many bytes the story files of a folder listed as `listed` (as for
    /// ``init(folder:displayPath:jobs:cache:listed:store:)``) hold, the files a load reads; nil
    /// when the listing cannot tell (it holds a symbolic link, which only a scan follows).
    public static func storyFileBytes(listed: [(path: String, stamp: FileStamp)]) -> Int? {
        var bytes = 0
        return FolderScan.forEachStoryFile(listed: listed) { bytes += Int($1.size) } ? bytes : nil
    }

    /// Whether two of the stories have the same numeric id. A reference by id names the first of
    /// them here, but in a crawl the first one it met, so what it names then depends on the order
    /// of the crawl.
    public var repeatsIDs: Bool { index.repeatsIDs }

    public func allStories() async throws -> [Story]? {
        index.stories
    }

    public func stories(answering query: StoryQuery) -> [Story] {
        index.stories(answering: query)
    }

    /// The file a story was read from, as shown in messages (`Content/blog/post.json`).
    public func file(ofStory uuid: String) -> String? {
        index.origin(of: uuid)?.file
    }

    /// Whether a folder reads a file of this name (a JSON file, not hidden); it passes over others.
    public static func readsFile(named name: String) -> Bool {
        FolderScan.isStoryFile(named: name)
    }

    /// The story the file at `path` (absolute, below the folder) holds now, read again, when it
    /// held exactly one story before and holds one story with the same UUID now, read without a
    /// problem: what a save that edited a story file gives. Nil for anything else (a new file,
    /// a file gone or unreadable, one with several stories or related ones): the folder must be
    /// read again. The folder itself is not changed; the story comes with its file's digest.
    public func rereadStory(atPath path: String) -> Story? {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        guard standardized.hasPrefix(root + "/") else { return nil }
        let shown = shownPrefix + standardized.dropFirst(root.count + 1)
        let file = StoryFile(path: standardized, shownAs: shown)
        guard file.problems.isEmpty, file.related.isEmpty, file.stories.count == 1, let entry = file.stories.first,
              entry.origin.entry == nil, entry.story.givenDigest != nil,
              index.origin(of: entry.story.uuid) == entry.origin, index.storyCount(fromFile: shown) == 1
        else { return nil }
        return entry.story
    }

    /// Where the field at `fieldPath` of the story's root block (`body[2].link`; empty for the
    /// story itself) is written: the file as shown in messages, and the line where the field's
    /// value starts, or where the deepest part of the path that exists does (a translated
    /// field, say). Nil for a story this folder does not hold. The file is read again: this is
    /// for messages.
    public func position(ofField fieldPath: String, inStory uuid: String) -> (file: String, line: Int)? {
        guard let origin = index.origin(of: uuid), origin.file.hasPrefix(shownPrefix) else { return nil }
        guard let bytes = try? FolderScan.contents(of: root + "/" + origin.file.dropFirst(shownPrefix.count)) else {
            return (origin.file, 1)
        }
        let field = fieldPath.isEmpty ? [] : [.key("content")] + JSONPathComponent.components(ofFieldPath: fieldPath)
        // A file's single story is the file's object (with "content") or its "story"; others
        // are entries of a list (`stories[3]`, `rels[0]`).
        if let entry = origin.entry {
            return (origin.file, JSONValue.position(of: JSONPathComponent.components(ofFieldPath: entry) + field, in: bytes)?.line ?? 1)
        }
        if !field.isEmpty, let bare = JSONValue.position(of: field, in: bytes), bare.matched > 0 {
            return (origin.file, bare.line)
        }
        return (origin.file, JSONValue.position(of: [.key("story")] + field, in: bytes)?.line ?? 1)
    }

    /// `Content/` for `Content`; nothing for the working folder itself.
    private static func shownPrefix(_ shown: String) -> String {
        shown.isEmpty || shown == "." ? "" : (shown.hasSuffix("/") ? shown : shown + "/")
    }

    /// Reads and parses the files, a file at a time on each of `jobs` threads, in path order;
    /// files `cache` holds unchanged (by their `stamps` when given, a listing's, whose sizes also
    /// spare a `stat` of each file read; else `stat`ed now) are not read again. With a cache, also returns what it is to keep of this load
    /// (``ParsedFileCache/keep(_:)``).
    private static func load(
        _ paths: [String], stamps: [ParsedFileCache.Stamp]?, in root: String, shownWith prefix: String, jobs: Int, cache: ParsedFileCache?,
        store: TapeStore?
    ) -> (files: [StoryFile], loaded: [ParsedFileCache.Loaded]?) {
        guard let cache else {
            let files = ParallelWork.map(count: paths.count, jobs: jobs) { position in
                StoryFile(
                    path: String(concatenating: root, "/", paths[position]), shownAs: prefix + paths[position], size: stamps?[position].size,
                    store: store)
            }
            return (files, nil)
        }
        // The lookup is let go of before the cache is changed.
        let loaded = { (lookup: ParsedFileCache.Lookup) in
            ParallelWork.map(count: paths.count, jobs: jobs) { position -> (path: String, stamp: ParsedFileCache.Stamp?, file: StoryFile, wasKept: Bool) in
                let path = String(concatenating: root, "/", paths[position])
                let stamp = stamps.map { $0[position] } ?? ParsedFileCache.Stamp(path: path)
                if let stamp, let file = lookup.file(at: path, stamp: stamp) { return (path, stamp, file, true) }
                // A listed file's size is known: a regular file, as the listing found it.
                return (path, stamp, StoryFile(path: path, shownAs: prefix + paths[position], size: stamps?[position].size, store: store), false)
            }
        }(cache.lookup())
        // A file that cannot be `stat`ed is not kept: the next load reads it again.
        let kept = loaded.compactMap { item in
            item.stamp.map { ParsedFileCache.Loaded(path: item.path, stamp: $0, file: item.file, wasKept: item.wasKept) }
        }
        return (loaded.map(\.file), kept)
    }
}
