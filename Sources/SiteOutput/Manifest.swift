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

    /// A manifest file that exists but cannot be read: storysite can no longer tell its files
    /// from the user's.
    struct Unreadable: Error {
        var reason: String
    }

    /// Reads the manifest of `output`; nil when there is none.
    static func read(in output: URL) throws(Unreadable) -> Manifest? {
        let url = output.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Data(contentsOf: url))
        } catch {
            throw Unreadable(reason: "\(error)")
        }
        guard let generator = json["generator"]?.stringValue, case .object(let entries)? = json["files"] else {
            throw Unreadable(reason: "expected an object with 'generator' and 'files'")
        }
        var manifest = Manifest(generator: generator)
        manifest.files.reserveCapacity(entries.count)
        for entry in entries {
            // The folder may come from a CI cache or a download: what it names, a build may delete.
            if let problem = SafePath.problem(in: entry.key) {
                throw Unreadable(reason: "it lists '\(entry.key)', which storysite would never write: \(problem)")
            }
            guard let size = entry.value["size"]?.numberValue.flatMap(Int.init(exactly:)),
                  let hash = entry.value["hash"]?.stringValue,
                  let modified = entry.value["modified"].flatMap(Self.nanoseconds) else {
                throw Unreadable(reason: "the entry of '\(entry.key)' needs a size, a hash and a modification time")
            }
            manifest.files[entry.key] = Entry(size: size, hash: hash, modified: modified)
        }
        // A path that is also another's folder could only be a symbolic link to elsewhere.
        if let conflict = SafePath.folderConflicts(among: manifest.files.keys).first {
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

    /// The manifest as stable JSON, files sorted by path, one per line. Modification times are
    /// written as strings of digits: a JSON number would lose their last digits.
    func encoded() -> Data {
        let entries = files.keys.sorted().map { path in
            let entry = files[path]!
            return JSONObject.Entry(key: path, value: .object(JSONObject([
                "hash": .string(entry.hash), "modified": .string(String(entry.modified)), "size": .number(Double(entry.size)),
            ])))
        }
        let document = JSONObject(["files": .object(JSONObject(distinctEntries: entries)), "generator": .string(generator)])
        return Data(JSONValue.object(document).jsonBytes(pretty: true))
    }

    /// A modification time as written: a string of digits, or a number (as earlier builds wrote
    /// it; rounded when read, so such a file counts as changed once and is written again).
    private static func nanoseconds(_ value: JSONValue) -> Int64? {
        switch value {
        case .string(let digits): return Int64(digits)
        case .number(let number): return number.isFinite ? Int64(exactly: number.rounded()) : nil
        default: return nil
        }
    }
}
