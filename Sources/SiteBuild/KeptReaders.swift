import Foundation
import StoryCrawl
import StoryModel

/// The content readers a build noted (``ContentReaders``), kept in `.storysite/readers` for the
/// next build: one whose content changed only in some stories' content (``ContentEdit``) renders
/// the pages that read them and keeps the others' records, without fingerprinting every page.
///
/// They are known by the state of the content they were noted from (``ContentEdit/state(of:)``),
/// which the page records name (``BuildCache/readersState``): readers the records do not name
/// are not used. A build that takes the edit's way leaves them as they are (its pages are the
/// ones they were noted from), and its records go on naming them.
struct KeptReaders: Sendable {
    static let relativePath = ".storysite/readers"
    static let magic = "storysite content readers 1\n"

    /// The state of the content the readers were noted from.
    let state: String
    /// How many stories the graph had, and where its edges led (``StoryCrawl/LinkGraph/edgeShape``).
    let storyCount: Int
    let edgeShape: UInt64
    let readers: ContentReaders

    /// The readers noted from `graph`, whose content's state is `state`.
    init(_ readers: ContentReaders, of graph: LinkGraph, state: String) {
        self.state = state
        storyCount = graph.stories.count
        edgeShape = graph.edgeShape
        self.readers = readers
    }

    /// Whether the readers were noted from a graph with `graph`'s stories (by count) and edges,
    /// and a plan of `pageCount` pages.
    func fit(_ graph: LinkGraph, pageCount: Int) -> Bool {
        storyCount == graph.stories.count && readers.pageCount == pageCount && edgeShape == graph.edgeShape
    }

    /// Saves the readers in `output`, atomically, under the build's `key`.
    func write(in output: URL, key: String) throws {
        var writer = ByteRecordWriter(magic: Self.magic)
        writer.string(key)
        writer.string(state)
        writer.number(storyCount)
        writer.number(edgeShape)
        readers.write(into: &writer)
        try writer.file.write(to: output.appendingPathComponent(Self.relativePath))
    }

    /// The readers kept in `output` under `key`, when they are those noted from the content
    /// state `state`; nil when missing, corrupt, of another key or of another state.
    static func read(in output: URL, key: String, state: String) -> KeptReaders? {
        guard let data = try? Data(contentsOf: output.appendingPathComponent(relativePath), options: .alwaysMapped) else { return nil }
        return data.withUnsafeBytes { bytes in
            guard var reader = ByteRecordReader(bytes, magic: magic), reader.string() == key, reader.string() == state,
                  let storyCount = reader.int(), let edgeShape = reader.number(),
                  let readers = ContentReaders(from: &reader, storyCount: storyCount), reader.isAtEnd
            else { return nil }
            return KeptReaders(state: state, storyCount: storyCount, edgeShape: edgeShape, readers: readers)
        }
    }

    private init(state: String, storyCount: Int, edgeShape: UInt64, readers: ContentReaders) {
        self.state = state
        self.storyCount = storyCount
        self.edgeShape = edgeShape
        self.readers = readers
    }

    /// Removes the readers kept in `output`, for a build that noted none: the records it writes name none.
    static func remove(in output: URL) {
        try? FileManager.default.removeItem(at: output.appendingPathComponent(relativePath))
    }
}
