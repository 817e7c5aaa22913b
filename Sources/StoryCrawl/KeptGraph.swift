import Foundation
import StoryModel
import StorySource

/// A crawl's link graph as a build keeps it for the next one (in the output folder's kept
/// content): the crawl's entries and base URL, each story it found by UUID with the digest of
/// its file and what the crawl read of its head (``CrawledHead``), the depth and first link of
/// each story reached, and the edges with how they resolved. A rebuild makes the graph from it
/// and the stories it reads instead of crawling them again, finding again only the edges its
/// saves may have moved (``updated(with:references:jobs:)``).
///
/// The digests come last in the file, written in place rather than in the string table: a graph
/// brought up to date is the same file with other digests (``encoded(updatedTo:)``). A story's
/// UUID and head are written in place, and the first link to a story names it by its position.
/// The edges are the graph's ``EdgeTable`` as it is in memory (their ends are positions among
/// the stories), followed by the positions of the stale ones: they are written and read as a few
/// arrays, not edge by edge.
///
/// Bump ``magic`` whenever a crawl of the same stories could give another graph: a graph kept
/// by an older version must not stand for what this one would crawl.
public struct KeptGraph: Sendable {
    /// The entries and base URL of the crawl (the entries with the global story, when it was one).
    public let entries: [String]
    public let baseURL: String?
    private let rootSlug: String
    private let nodes: [Node]
    private let orphans: [Kept]
    private let edges: EdgeTable
    /// The positions of the stale edges (see ``LinkGraph/staleEdges``).
    private let staleEdges: [Int]
    /// The position in ``nodes`` of the root story.
    private let rootPosition: Int?
    /// The file as read (its edges' texts used where they are), and where its digests start.
    private let file: MappedFile
    private let digestsOffset: Int

    /// A story the crawl found, as kept: enough to tell whether its current version could move an edge.
    private struct Kept {
        var uuid: String
        var digest: String
        var head: CrawledHead

        var known: KnownStory { KnownStory(uuid: uuid, digest: digest, head: head) }
    }

    private struct Node {
        var story: Kept
        var depth: Int
        var firstLinkedFrom: String?
    }

    /// The graph `source` gives, without a crawl: when every story the kept graph knew is there
    /// and none was added, each with what the crawl read of its head and the references its
    /// earlier version made (as `references` kept them), the kept graph with the current
    /// versions of its stories; otherwise the crawl replayed over the kept edges (see
    /// ``CrawlReplay``). Nil when neither is sure to give the crawl's graph: the source must be
    /// crawled. The settings the crawl would be made with must be this graph's: ``entries``,
    /// ``baseURL`` and no collections.
    public func updated(with source: LocalFolderSource, references: ReferenceCache, jobs: Int) async throws -> LinkGraph.Update? {
        let update = StoryUpdate(current: { source.story(for: .uuid($0)) }, references: references, baseURL: baseURL, rootSlug: rootSlug)
        guard let all = try await source.allStories() else { return nil }
        let changes = update.changes(
            of: all, reached: nodes.count, { nodes[$0].story.known }, unreached: orphans.count, { orphans[$0].known }, jobs: jobs)
        guard changes.movesNoEdge else {
            let earlier = CrawlReplay.Earlier(
                entries: entries, uuids: nodes.map(\.story.uuid), entryCount: nodes.prefix { $0.depth == 0 }.count, root: rootPosition,
                table: edges, stale: staleEdges)
            return try await CrawlReplay(source: source, update: update).graph(replaying: earlier, changes: changes, jobs: jobs)
                .map { LinkGraph.Update(graph: $0, keepsEdges: false) }
        }
        let reached = changes.reached.stories.map { $0! }
        let stories = zip(nodes, reached).map { node, story in
            LinkGraph.Node(story: story, depth: node.depth, firstLinkedFrom: node.firstLinkedFrom)
        }
        let graph = LinkGraph(
            stories: stories, table: edges, orphans: changes.unreached.stories.map { $0! }, root: rootPosition.map { reached[$0] },
            stale: staleEdges, jobs: jobs)
        return LinkGraph.Update(graph: graph, keepsEdges: true)
    }

    // MARK: On disk

    static let magic = "storysite link graph 6\n"

    /// The file's bytes for `graph`, crawled from `entries` with `baseURL`; nil when a story has
    /// no file digest (it could not be told unchanged), or the root or the source of an edge is
    /// not among the stories reached.
    public static func encoded(_ graph: LinkGraph, entries: [String], baseURL: String?) -> FileChunks? {
        let reached = graph.stories.map(\.story)
        guard !(reached + graph.orphans).contains(where: { $0.givenDigest == nil }),
              graph.table.placedSources.isEmpty else { return nil }
        let rootPosition = graph.root.map { graph.position(of: $0) }
        if case .some(nil) = rootPosition { return nil }

        var writer = ByteRecordWriter(magic: magic)
        writer.number(entries.count)
        for entry in entries { writer.string(entry) }
        writer.optionalString(baseURL)
        writer.string(graph.rootSlug)
        writer.number(rootPosition.map { $0! + 1 } ?? 0)
        writer.number(reached.count)
        for node in graph.stories {
            writer.inlineString(node.story.uuid)
            writeHead(of: node.story, into: &writer)
            writer.number(node.depth)
            writeStory(node.firstLinkedFrom, of: graph, into: &writer)
        }
        writer.number(graph.orphans.count)
        for story in graph.orphans {
            writer.inlineString(story.uuid)
            writeHead(of: story, into: &writer)
        }
        graph.table.write(into: &writer)
        writer.number(graph.stalePositions.count)
        for position in graph.stalePositions { writer.number(position) }
        writeDigests(of: graph, into: &writer)
        return writer.file
    }

    /// The file's bytes for `graph`, this graph brought up to date (by ``updated(with:references:jobs:)``,
    /// or later by ``LinkGraph/updated(with:references:entries:baseURL:jobs:)``): this file with the
    /// digests of `graph`'s stories.
    public func encoded(updatedTo graph: LinkGraph) -> FileChunks {
        var digests = ByteRecordWriter(magic: Self.magic)
        Self.writeDigests(of: graph, into: &digests)
        return FileChunks(chunks: [.mapped(file.data(0..<digestsOffset))] + digests.records.chunks)
    }

    /// The story a story was first linked from, by UUID: `0` for none, its position in the
    /// graph's stories plus 2, or `1` and the UUID in place for one not reached.
    private static func writeStory(_ uuid: String?, of graph: LinkGraph, into writer: inout ByteRecordWriter) {
        guard let uuid else { return writer.number(0) }
        if let position = graph.position(of: uuid) { return writer.number(position + 2) }
        writer.number(1)
        writer.inlineString(uuid)
    }

    /// What the crawl read of `story`'s head (see ``CrawledHead``): its `full_slug` in place, its
    /// id (`0` for none, else `1` and the id), and the folder it is the start page of.
    private static func writeHead(of story: Story, into writer: inout ByteRecordWriter) {
        writer.inlineString(story.fullSlug)
        if let id = story.id {
            writer.number(1)
            writer.number(id)
        } else {
            writer.number(0)
        }
        writer.optionalString(story.startPageFolder)
    }

    /// A head as ``writeHead(of:into:)`` wrote it; nil when unreadable.
    private static func readHead(from reader: inout ByteRecordReader) -> CrawledHead? {
        guard let fullSlug = reader.inlineString(), let hasID = reader.number() else { return nil }
        var id: Int?
        switch hasID {
        case 0: id = nil
        case 1:
            guard let number = reader.int() else { return nil }
            id = number
        default: return nil
        }
        guard let startPageFolder = reader.optionalString() else { return nil }
        return CrawledHead(fullSlug: fullSlug, id: id, startPageFolder: startPageFolder)
    }

    /// A story as ``writeStory(_:of:into:)`` wrote it, before the UUIDs of the stories reached are known.
    private enum NamedStory {
        case none
        case reached(Int)
        case other(String)

        /// Read from `reader`; nil when unreadable.
        init?(from reader: inout ByteRecordReader) {
            switch reader.number() {
            case 0: self = .none
            case 1:
                guard let uuid = reader.inlineString() else { return nil }
                self = .other(uuid)
            case let position?: self = .reached(Int(clamping: position - 2))
            case nil: return nil
            }
        }

        /// The story's UUID, `uuids` being those of the stories reached; `.some(nil)` for none,
        /// nil for a position past them.
        func uuid(among uuids: [String]) -> String?? {
            switch self {
            case .none: return .some(nil)
            case .reached(let position): return position < uuids.count ? .some(uuids[position]) : nil
            case .other(let uuid): return .some(uuid)
            }
        }
    }

    /// Last in the file: the digests of the stories reached, then of the others, in place.
    private static func writeDigests(of graph: LinkGraph, into writer: inout ByteRecordWriter) {
        for node in graph.stories { writer.inlineString(node.story.givenDigest!) }
        for story in graph.orphans { writer.inlineString(story.givenDigest!) }
    }

    /// The graph kept in the file at `url`; nil when it is missing, unreadable, corrupt or of
    /// another version.
    public static func reading(_ url: URL) -> KeptGraph? {
        guard let file = MappedFile(path: url.path), var reader = ByteRecordReader(file.bytes, magic: magic) else { return nil }
        return KeptGraph(from: &reader, of: file)
    }

    /// The graph `reader` reads from the bytes of `file`.
    private init?(from reader: inout ByteRecordReader, of file: MappedFile) {
        guard let entryCount = reader.count() else { return nil }
        var entries: [String] = []
        for _ in 0..<entryCount {
            guard let entry = reader.string() else { return nil }
            entries.append(entry)
        }
        guard let baseURL = reader.optionalString(), let rootSlug = reader.string(), let root = reader.count(),
              let nodeCount = reader.count(), root <= nodeCount else { return nil }
        // A story's first link may come from a story after it: its UUID is known once all are read.
        var uuids: [String] = []
        var nodes: [Node] = []
        var firstLinks: [NamedStory] = []
        uuids.reserveCapacity(nodeCount)
        nodes.reserveCapacity(nodeCount)
        firstLinks.reserveCapacity(nodeCount)
        for _ in 0..<nodeCount {
            guard let uuid = reader.inlineString(), let head = Self.readHead(from: &reader), let depth = reader.int(),
                  let firstLink = NamedStory(from: &reader) else { return nil }
            uuids.append(uuid)
            nodes.append(Node(story: Kept(uuid: uuid, digest: "", head: head), depth: depth, firstLinkedFrom: nil))
            firstLinks.append(firstLink)
        }
        for position in nodes.indices {
            guard let firstLinkedFrom = firstLinks[position].uuid(among: uuids) else { return nil }
            nodes[position].firstLinkedFrom = firstLinkedFrom
        }
        guard let orphanCount = reader.count() else { return nil }
        var orphans: [Kept] = []
        orphans.reserveCapacity(orphanCount)
        for _ in 0..<orphanCount {
            guard let uuid = reader.inlineString(), let head = Self.readHead(from: &reader) else { return nil }
            orphans.append(Kept(uuid: uuid, digest: "", head: head))
        }
        guard let edges = EdgeTable(from: &reader, storyCount: nodeCount, in: file), let staleCount = reader.count() else { return nil }
        var staleEdges: [Int] = []
        staleEdges.reserveCapacity(staleCount)
        for _ in 0..<staleCount {
            // In order, each an edge resolved to a story reached.
            guard let position = reader.position(below: edges.count), position > (staleEdges.last ?? -1),
                  edges.target(ofEdge: position) != nil else { return nil }
            staleEdges.append(position)
        }
        digestsOffset = reader.offset
        for position in nodes.indices {
            guard let digest = reader.inlineString() else { return nil }
            nodes[position].story.digest = digest
        }
        for position in orphans.indices {
            guard let digest = reader.inlineString() else { return nil }
            orphans[position].digest = digest
        }
        guard reader.isAtEnd else { return nil }
        self.entries = entries
        self.baseURL = baseURL
        self.rootSlug = rootSlug
        self.nodes = nodes
        self.orphans = orphans
        self.edges = edges
        self.staleEdges = staleEdges
        self.file = file
        rootPosition = root == 0 ? nil : root - 1
    }
}
