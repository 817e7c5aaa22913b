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

    var generator = "storysite" {
        didSet { layout = nil }
    }
    var files: [String: Entry] = [:] {
        didSet { layout = nil }
    }
    /// The file read, while ``files`` are what it holds and it is laid out as ``encoded()``
    /// writes them: ``encoded(changing:)`` copies the entries between its changes from it.
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
            // Mapped, so that its bytes are copied once, into the array the layout keeps, not
            // first into a buffer as large (a manifest of 10,000 pages is 1.4 MB).
            bytes = [UInt8](try Data(contentsOf: url, options: .alwaysMapped))
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
        var manifest = try reading.finish(orderedPaths: reading.inByteOrder ? layout.entries.map(\.path) : nil)
        // In the order of their bytes, and none the same as another (a path repeated in another
        // normal form is one file): the file is what encoding its files writes.
        if reading.inByteOrder, manifest.files.count == layout.entries.count { manifest.layout = layout }
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
        /// Whether the paths added so far came in the order of their bytes.
        private(set) var inByteOrder = true
        private var lastPath: String?

        init(generator: String, count: Int) {
            manifest = Manifest(generator: generator)
            manifest.files.reserveCapacity(count)
        }

        /// Why a manifest that lists `path` cannot be read, when storysite would never write it;
        /// nil for a path it may write. The folder may come from a CI cache or a download: what
        /// its manifest names, a build may delete.
        static func unsafe(_ path: String) -> Unreadable? {
            SafePath.problem(in: path).map { Unreadable(reason: "it lists '\(path)', which storysite would never write: \($0)") }
        }

        /// Adds the entry of `path`, a path ``unsafe(_:)`` found safe.
        mutating func add(_ path: String, _ entry: Entry) {
            if inByteOrder, let lastPath { inByteOrder = lastPath.utf8Precedes(path) }
            lastPath = path
            manifest.files[path] = entry
        }

        /// The manifest read, refused when a path is another's folder. `orderedPaths` are its
        /// paths as the file has them, when in the order of their bytes.
        func finish(orderedPaths: [String]? = nil) throws(Unreadable) -> Manifest {
            // A path that is also another's folder could only be a symbolic link to elsewhere.
            let conflicts = orderedPaths.flatMap(SafePath.folderConflicts(amongOrdered:))
                ?? SafePath.folderConflicts(among: manifest.files.keys, contains: { [files = manifest.files] in files[$0] != nil })
            if let conflict = conflicts.first {
                throw Unreadable(reason: "it lists both '\(conflict.file)' and '\(conflict.below)', which storysite would never write")
            }
            return manifest
        }
    }

    /// The manifest as stable JSON, files sorted by the bytes of their paths, each entry's fields
    /// on lines of their own, indented by two spaces. Modification times are written as strings of
    /// digits: a JSON number would lose their last digits.
    func encoded() -> [UInt8] {
        if let layout { return layout.bytes }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(files.count * 140)
        Self.append(ManifestLayout.Text.opening, to: &bytes)
        for (position, index) in ByteOrder.sortedIndices(of: files).enumerated() {
            Self.append(position == 0 ? ManifestLayout.Text.firstEntry : ManifestLayout.Text.nextEntry, to: &bytes)
            Self.append(files[index].key, files[index].value, to: &bytes)
        }
        appendEnd(entryCount: files.count, to: &bytes)
        return bytes
    }

    /// ``encoded()`` of this manifest with `changes` made to its files (a path's new entry, or
    /// nil for a path gone), as ``write(changing:to:)`` writes it.
    func encoded(changing changes: [String: Entry?]) -> [UInt8] {
        guard let layout else { return changed(by: changes).encoded() }
        var bytes: [UInt8] = []
        for piece in pieces(changing: changes, of: layout) {
            switch piece {
            case .read(let range): bytes.append(contentsOf: layout.bytes[range])
            case .made(let made): bytes.append(contentsOf: made)
            }
        }
        return bytes
    }

    /// Puts ``encoded(changing:)`` at `url` atomically and durably, without a changed copy of
    /// the files: for a manifest as read, the runs of entries between the changes are written
    /// from its file as they are. A rebuild that writes one page of ten thousand copied the ten
    /// thousand entries to change one, encoded them all again into a new buffer, and wrote that:
    /// most of its write.
    func write(changing changes: [String: Entry?], to url: URL) throws {
        guard let layout else { return try changed(by: changes).write(to: url, options: .atomic) }
        let pieces = pieces(changing: changes, of: layout)
        try layout.bytes.withUnsafeBytes { file in
            try POSIXFile.replace(url, durably: true) { descriptor, path in
                for piece in pieces {
                    switch piece {
                    case .read(let range): try POSIXFile.write(UnsafeRawBufferPointer(rebasing: file[range]), to: descriptor, path: path)
                    case .made(let made): try made.withUnsafeBytes { try POSIXFile.write($0, to: descriptor, path: path) }
                    }
                }
            }
        }
    }

    /// This manifest with `changes` made to its files.
    private func changed(by changes: [String: Entry?]) -> Manifest {
        var changed = self
        for (path, entry) in changes { changed.files[path] = entry }
        return changed
    }

    /// A part of a manifest file: bytes of the file `layout` read, or bytes made anew.
    private enum Piece {
        case read(Range<Int>)
        case made([UInt8])
    }

    /// ``encoded()`` of this manifest with `changes` made to its files, in pieces: the runs of
    /// entries between the changes as they are in the file read (`layout`), and what stands
    /// between them.
    private func pieces(changing changes: [String: Entry?], of layout: ManifestLayout) -> [Piece] {
        // Each change under the spelling its path has among the files, as changing them would
        // keep it (a path in another normal form is the same key); a removal of a path the files
        // lack changes nothing.
        var edits: [(path: String, entry: Entry?)] = []
        for (path, entry) in changes {
            let index = files.index(forKey: path)
            guard index != nil || entry != nil else { continue }
            edits.append((index.map { files[$0].key } ?? path, entry))
        }
        let entries = layout.entries
        var pieces: [Piece] = []
        var made: [UInt8] = []
        Self.append(ManifestLayout.Text.opening, to: &made)
        var written = 0
        var copied = 0
        /// The file's entries from `copied` up to `end`, with the separators between them.
        func copyEntries(upTo end: Int) {
            guard copied < end else { return }
            Self.append(written == 0 ? ManifestLayout.Text.firstEntry : ManifestLayout.Text.nextEntry, to: &made)
            pieces.append(.made(made))
            made = []
            pieces.append(.read(entries[copied].bytes.lowerBound..<entries[end - 1].bytes.upperBound))
            written += end - copied
            copied = end
        }
        for edit in ByteOrder.order(of: edits.map(\.path)).map({ edits[$0] }) {
            var position = copied
            var high = entries.count
            while position < high {
                let middle = (position + high) / 2
                if entries[middle].path.utf8Precedes(edit.path) { position = middle + 1 } else { high = middle }
            }
            copyEntries(upTo: position)
            if let entry = edit.entry {
                Self.append(written == 0 ? ManifestLayout.Text.firstEntry : ManifestLayout.Text.nextEntry, to: &made)
                Self.append(edit.path, entry, to: &made)
                written += 1
            }
            if position < entries.count, entries[position].path.hasSameUTF8(as: edit.path) { copied = position + 1 }
        }
        copyEntries(upTo: entries.count)
        appendEnd(entryCount: written, to: &made)
        pieces.append(.made(made))
        return pieces
    }

    /// One entry as ``encoded()`` writes it, from the opening quote of its path to its closing brace.
    private static func append(_ path: String, _ entry: Entry, to bytes: inout [UInt8]) {
        JSONValue.appendQuoted(path, to: &bytes)
        append(ManifestLayout.Text.hash, to: &bytes)
        JSONValue.appendQuoted(entry.hash, to: &bytes)
        append(ManifestLayout.Text.modified, to: &bytes)
        JSONValue.appendInteger(entry.modified, to: &bytes)
        append(ManifestLayout.Text.size, to: &bytes)
        JSONValue.appendInteger(Int64(entry.size), to: &bytes)
        append(ManifestLayout.Text.entryEnd, to: &bytes)
    }

    /// What follows the last of `entryCount` entries: the end of the files and the generator.
    private func appendEnd(entryCount: Int, to bytes: inout [UInt8]) {
        Self.append(entryCount == 0 ? ManifestLayout.Text.noFiles : ManifestLayout.Text.filesEnd, to: &bytes)
        Self.append(ManifestLayout.Text.generator, to: &bytes)
        JSONValue.appendQuoted(generator, to: &bytes)
        Self.append(ManifestLayout.Text.closing, to: &bytes)
    }

    private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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
