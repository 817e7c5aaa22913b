import Foundation
import StoryModel

/// The record of every file storysite wrote into an output folder, kept at
/// `<output>/.storysite/manifest.json`.
///
/// It lets a rebuild skip unchanged files (same hash, and the file on disk still has the size and
/// modification time recorded), remove pages that are gone, and refuse folders it did not write.
struct Manifest: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var size: Int
        var hash: String
        /// Modification time in nanoseconds since 1970, as recorded after writing.
        var modified: Int64
    }

    static let folderName = ".storysite"
    static let fileName = "manifest.json"
    static let relativePath = folderName + "/" + fileName

    var generator = "storysite"
    var files: [String: Entry] = [:]
    /// The paths of the manifest file read, in its order, when that is the order of their
    /// bytes: a manifest of the same paths is written in it again rather than sorted (a third
    /// of the time its encoding took at 10,000 pages).
    private var pathsAsRead: [String] = []
    /// The file read, when it was laid out as ``encoded()`` writes and its paths are
    /// ``pathsAsRead``: a manifest of the same paths copies from it the entries that did not change.
    private var layout: ManifestLayout?

    static func == (lhs: Manifest, rhs: Manifest) -> Bool {
        lhs.generator == rhs.generator && lhs.files == rhs.files
    }

    /// A manifest file that exists but cannot be read: storysite can no longer tell its files
    /// from the user's.
    struct Unreadable: Error {
        var reason: String
    }

    /// Reads the manifest of `output`; nil when there is none.
    static func read(in output: URL) throws(Unreadable) -> Manifest? {
        let url = output.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw Unreadable(reason: "\(error)")
        }
        return try decoding(bytes)
    }

    /// The manifest a file of `bytes` holds. One laid out as ``encoded()`` writes it is read as
    /// such (``ManifestLayout``); another, with `asJSON` any, off the parser's tape, without a
    /// tree: a site of ten thousand pages has a manifest of ten thousand entries. Either way
    /// reads the same manifest, or refuses it for the same reason (the `manifest` fuzzer's
    /// promise).
    static func decoding(_ bytes: [UInt8], asJSON: Bool = false) throws(Unreadable) -> Manifest {
        if !asJSON, let layout = ManifestLayout(bytes) { return try manifest(laidOutAs: layout) }
        let tape: JSONTape
        do {
            tape = try JSONTape(parsing: bytes)
        } catch {
            throw Unreadable(reason: "\(error)")
        }
        let read = tape.withReader { reader in Result { () throws(Unreadable) in try manifest(in: reader) } }
        return try read.get()
    }

    /// The manifest of a file laid out as ``encoded()`` writes it.
    private static func manifest(laidOutAs layout: ManifestLayout) throws(Unreadable) -> Manifest {
        var reading = Reading(generator: layout.generator, count: layout.entries.count)
        for read in layout.entries {
            if let unsafe = Reading.unsafe(read.path) { throw unsafe }
            reading.add(read.path, read.entry)
        }
        var manifest = try reading.finish()
        if manifest.pathsAsRead.count == layout.entries.count { manifest.layout = layout }
        return manifest
    }

    /// The manifest the tape of `reader` holds.
    private static func manifest(in reader: JSONTape.Reader) throws(Unreadable) -> Manifest {
        guard reader.kind(at: 0) == .object, let generator = reader.value(forKey: "generator", inObject: 0).flatMap(reader.string(at:)),
              let files = reader.value(forKey: "files", inObject: 0), reader.kind(at: files) == .object else {
            throw Unreadable(reason: "expected an object with 'generator' and 'files'")
        }
        var reading = Reading(generator: generator, count: reader.count(at: files))
        var problem: Unreadable?
        reader.forEachEntry(ofObject: files) { key, value in
            let path = reader.string(at: key)!
            if let unsafe = Reading.unsafe(path) {
                problem = unsafe
                return false
            }
            guard reader.kind(at: value) == .object,
                  let size = reader.value(forKey: "size", inObject: value).flatMap(reader.number(at:)).flatMap(Int.init(exactly:)),
                  let hash = reader.value(forKey: "hash", inObject: value).flatMap(reader.string(at:)),
                  let modified = reader.value(forKey: "modified", inObject: value).flatMap({ nanoseconds(at: $0, in: reader) }) else {
                problem = Unreadable(reason: "the entry of '\(path)' needs a size, a hash and a modification time")
                return false
            }
            reading.add(path, Entry(size: size, hash: hash, modified: modified))
            return true
        }
        if let problem { throw problem }
        return try reading.finish()
    }

    /// A manifest as its file is read, an entry at a time in the file's order.
    private struct Reading {
        var manifest: Manifest
        var inByteOrder = true

        init(generator: String, count: Int) {
            manifest = Manifest(generator: generator)
            manifest.files.reserveCapacity(count)
            manifest.pathsAsRead.reserveCapacity(count)
        }

        /// Why a manifest that lists `path` cannot be read, when storysite would never write it;
        /// nil for a path it may write. The folder may come from a CI cache or a download: what
        /// its manifest names, a build may delete.
        static func unsafe(_ path: String) -> Unreadable? {
            SafePath.problem(in: path).map { Unreadable(reason: "it lists '\(path)', which storysite would never write: \($0)") }
        }

        /// Adds the entry of `path`, a path ``unsafe(_:)`` found safe.
        mutating func add(_ path: String, _ entry: Entry) {
            if inByteOrder, let last = manifest.pathsAsRead.last { inByteOrder = last.utf8Precedes(path) }
            manifest.pathsAsRead.append(path)
            manifest.files[path] = entry
        }

        consuming func finish() throws(Unreadable) -> Manifest {
            if !inByteOrder { manifest.pathsAsRead = [] }
            // A path that is also another's folder could only be a symbolic link to elsewhere.
            if let conflict = SafePath.folderConflicts(among: manifest.files.keys, contains: { [files = manifest.files] in files[$0] != nil }).first {
                throw Unreadable(reason: "it lists both '\(conflict.file)' and '\(conflict.below)', which storysite would never write")
            }
            return manifest
        }
    }

    /// The manifest as stable JSON, files sorted by the bytes of their paths, each entry's fields
    /// on lines of their own, indented by two spaces. Modification times are written as strings of
    /// digits: a JSON number would lose their last digits.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(files.count * 140)
        func line(_ text: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        typealias Text = ManifestLayout.Text
        line(Text.opening)
        let (indices, asRead) = orderedIndices()
        // The entries of the file read, where they are in the same order.
        let read = asRead ? layout : nil
        for (position, index) in indices.enumerated() {
            let (path, entry) = files[index]
            line(position == 0 ? Text.firstEntry : Text.nextEntry)
            if let read, read.entries[position].entry == entry {
                bytes.append(contentsOf: read.bytes[read.entries[position].bytes])
                continue
            }
            JSONValue.appendQuoted(path, to: &bytes)
            line(Text.hash)
            JSONValue.appendQuoted(entry.hash, to: &bytes)
            line(Text.modified)
            JSONValue.appendInteger(entry.modified, to: &bytes)
            line(Text.size)
            JSONValue.appendInteger(Int64(entry.size), to: &bytes)
            line(Text.entryEnd)
        }
        line(files.isEmpty ? Text.noFiles : Text.filesEnd)
        line(Text.generator)
        JSONValue.appendQuoted(generator, to: &bytes)
        line(Text.closing)
        return bytes
    }

    /// The indices of ``files`` in the order of their paths' bytes, and whether that is the
    /// order of the file read (``pathsAsRead``): it is when the paths are those it had.
    private func orderedIndices() -> (indices: [Dictionary<String, Entry>.Index], asRead: Bool) {
        if pathsAsRead.count == files.count {
            var indices: [Dictionary<String, Entry>.Index] = []
            indices.reserveCapacity(files.count)
            for path in pathsAsRead {
                guard let index = files.index(forKey: path) else { return (ByteOrder.sortedIndices(of: files), false) }
                indices.append(index)
            }
            return (indices, true)
        }
        return (ByteOrder.sortedIndices(of: files), false)
    }

    /// Writes ``encoded()`` to `url`, its bytes not copied into a `Data` first (14 MB more, for
    /// a moment, at 100,000 pages).
    func write(to url: URL, options: Data.WritingOptions = []) throws {
        var bytes = encoded()
        try bytes.withUnsafeMutableBytes { buffer in
            try Data(bytesNoCopy: buffer.baseAddress!, count: buffer.count, deallocator: .none).write(to: url, options: options)
        }
    }

    /// A modification time as written: a string of digits, or a number (as earlier builds wrote
    /// it; rounded when read, so such a file counts as changed once and is written again).
    private static func nanoseconds(at index: Int, in reader: JSONTape.Reader) -> Int64? {
        switch reader.kind(at: index) {
        case .string: return reader.string(at: index).flatMap { Int64($0) }
        case .number: return reader.number(at: index).flatMap { $0.isFinite ? Int64(exactly: $0.rounded()) : nil }
        default: return nil
        }
    }
}
