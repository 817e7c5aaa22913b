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

    static func == (lhs: Manifest, rhs: Manifest) -> Bool {
        lhs.generator == rhs.generator && lhs.files == rhs.files
    }

    /// A manifest file that exists but cannot be read: storysite can no longer tell its files
    /// from the user's.
    struct Unreadable: Error {
        var reason: String
    }

    /// Reads the manifest of `output`; nil when there is none. It is read off the parser's
    /// tape, without a tree: a site of ten thousand pages has a manifest of ten thousand entries.
    static func read(in output: URL) throws(Unreadable) -> Manifest? {
        let url = output.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let tape: JSONTape
        do {
            tape = try JSONTape(parsing: [UInt8](Data(contentsOf: url)))
        } catch {
            throw Unreadable(reason: "\(error)")
        }
        let read = tape.withReader { reader in Result { () throws(Unreadable) in try manifest(in: reader) } }
        return try read.get()
    }

    /// The manifest the tape of `reader` holds.
    private static func manifest(in reader: JSONTape.Reader) throws(Unreadable) -> Manifest {
        guard reader.kind(at: 0) == .object, let generator = reader.value(forKey: "generator", inObject: 0).flatMap(reader.string(at:)),
              let files = reader.value(forKey: "files", inObject: 0), reader.kind(at: files) == .object else {
            throw Unreadable(reason: "expected an object with 'generator' and 'files'")
        }
        var manifest = Manifest(generator: generator)
        manifest.files.reserveCapacity(reader.count(at: files))
        manifest.pathsAsRead.reserveCapacity(reader.count(at: files))
        var inByteOrder = true
        var problem: Unreadable?
        reader.forEachEntry(ofObject: files) { key, value in
            let path = reader.string(at: key)!
            if inByteOrder, let last = manifest.pathsAsRead.last { inByteOrder = last.utf8Precedes(path) }
            manifest.pathsAsRead.append(path)
            // The folder may come from a CI cache or a download: what it names, a build may delete.
            if let unsafe = SafePath.problem(in: path) {
                problem = Unreadable(reason: "it lists '\(path)', which storysite would never write: \(unsafe)")
                return false
            }
            guard reader.kind(at: value) == .object,
                  let size = reader.value(forKey: "size", inObject: value).flatMap(reader.number(at:)).flatMap(Int.init(exactly:)),
                  let hash = reader.value(forKey: "hash", inObject: value).flatMap(reader.string(at:)),
                  let modified = reader.value(forKey: "modified", inObject: value).flatMap({ nanoseconds(at: $0, in: reader) }) else {
                problem = Unreadable(reason: "the entry of '\(path)' needs a size, a hash and a modification time")
                return false
            }
            manifest.files[path] = Entry(size: size, hash: hash, modified: modified)
            return true
        }
        if let problem { throw problem }
        if !inByteOrder { manifest.pathsAsRead = [] }
        // A path that is also another's folder could only be a symbolic link to elsewhere.
        if let conflict = SafePath.folderConflicts(among: manifest.files.keys, contains: { manifest.files[$0] != nil }).first {
            throw Unreadable(reason: "it lists both '\(conflict.file)' and '\(conflict.below)', which storysite would never write")
        }
        return manifest
    }

    /// Whether the manifest names `path` byte for byte. A file on disk is storysite's only then:
    /// Swift's `==` calls canonically equivalent names equal, while the file system holds both.
    func lists(exactly path: String) -> Bool {
        guard let index = files.index(forKey: path) else { return false }
        return files[index].key.utf8.elementsEqual(path.utf8)
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
        line("{\n  \"files\": {")
        for (position, index) in orderedIndices().enumerated() {
            let (path, entry) = files[index]
            line(position == 0 ? "\n    " : ",\n    ")
            JSONValue.appendQuoted(path, to: &bytes)
            line(": {\n      \"hash\": ")
            JSONValue.appendQuoted(entry.hash, to: &bytes)
            line(",\n      \"modified\": \"")
            JSONValue.appendInteger(entry.modified, to: &bytes)
            line("\",\n      \"size\": ")
            JSONValue.appendInteger(Int64(entry.size), to: &bytes)
            line("\n    }")
        }
        line(files.isEmpty ? "},\n  \"generator\": " : "\n  },\n  \"generator\": ")
        JSONValue.appendQuoted(generator, to: &bytes)
        line("\n}")
        return bytes
    }

    /// The indices of ``files`` in the order of their paths' bytes: that of the file read, when
    /// the paths are those it had.
    private func orderedIndices() -> [Dictionary<String, Entry>.Index] {
        if pathsAsRead.count == files.count {
            var indices: [Dictionary<String, Entry>.Index] = []
            indices.reserveCapacity(files.count)
            for path in pathsAsRead {
                guard let index = files.index(forKey: path) else { return ByteOrder.sortedIndices(of: files) }
                indices.append(index)
            }
            return indices
        }
        return ByteOrder.sortedIndices(of: files)
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
