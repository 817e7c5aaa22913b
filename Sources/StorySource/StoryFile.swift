import StoryModel

/// The stories one JSON file of a content folder holds, and what is wrong with it.
///
/// Accepted shapes: a bare story object (as in CLI exports named `<slug>_<id>.json`), a content
/// API response `{"story": {...}, "rels": [...]}` and a list `{"stories": [...], "rels": [...]}`.
/// Stories in `rels` (related stories a response was fetched with) are kept apart: they are
/// used only where no file of the folder has them.
struct StoryFile: Sendable {
    struct Entry: Sendable {
        var story: Story
        var origin: StoryOrigin
    }

    var stories: [Entry] = []
    var related: [Entry] = []
    var problems: [SourceProblem] = []

    /// Reads and decodes the file at `path`, shown to the user as `shownAs`, whose size a listing
    /// may have found (``FolderScan/contents(of:size:)``). Its stories keep the file's tape
    /// (``StoryModel/JSONTape``) and read their content from it; with `store`, the story of a file
    /// that holds one keeps its tape there (``StoryModel/Story/storingContent(in:)``).
    init(path: String, shownAs file: String, size: Int64? = nil, store: TapeStore? = nil) {
        let tape: JSONTape
        let bytes: [UInt8]
        do {
            bytes = try FolderScan.contents(of: path, size: size)
            tape = try JSONTape(parsing: bytes)
        } catch let error as FolderScan.Failure {
            problems.append(SourceProblem(file: file, message: "cannot read the file: \(error.reason)"))
            return
        } catch let error as JSONParseError {
            problems.append(SourceProblem(file: file, line: error.line, column: error.column, message: error.message))
            return
        } catch {
            preconditionFailure("reading a file throws only FolderScan.Failure or JSONParseError")
        }
        tape.withReader { reader in read(tape, reader, digest: Self.digest(of: bytes), file: file) }
        if let store, stories.count == 1, related.isEmpty { stories[0].story = stories[0].story.storingContent(in: store) }
    }

    /// Takes the stories out of a file's tape; `digest` is the file's, given to a story that is
    /// the file's only one.
    private mutating func read(_ tape: JSONTape, _ reader: JSONTape.Reader, digest: String, file: String) {
        guard reader.kind(at: 0) == .object else {
            problems.append(SourceProblem(file: file, message: "expected a JSON object, found \(Self.kind(reader.kind(at: 0))); \(Self.shapes)"))
            return
        }
        // A file that holds one story is hashed as bytes, much faster than walking its tree.
        if let story = Self.singleStory(in: reader) {
            add(tape, reader, story, entry: nil, digest: digest, file: file, to: \.stories)
        } else if let list = reader.value(forKey: "stories", inObject: 0) {
            guard reader.kind(at: list) == .array else {
                problems.append(SourceProblem(file: file, message: "'stories' must be an array of story objects, found \(Self.kind(reader.kind(at: list)))"))
                return
            }
            reader.forEachElement(ofArray: list) { index, element in
                add(tape, reader, element, entry: "stories[\(index)]", file: file, to: \.stories)
            }
        } else {
            problems.append(SourceProblem(file: file, message: "not a story: \(Self.shapes)"))
            return
        }
        if let related = reader.value(forKey: "rels", inObject: 0), reader.kind(at: related) == .array {
            reader.forEachElement(ofArray: related) { index, element in
                add(tape, reader, element, entry: "rels[\(index)]", file: file, to: \.related)
            }
        }
    }

    /// A file holding one deferred story (see ``ParsedFileCache``).
    init(single entry: Entry) {
        stories = [entry]
    }

    /// The story of a file that holds one, at the root of its tape: the root object itself (a
    /// bare story) or its `story` (an API response); nil for a list or anything else.
    static func singleStory(in reader: JSONTape.Reader) -> Int? {
        if reader.value(forKey: "uuid", inObject: 0) != nil || reader.value(forKey: "full_slug", inObject: 0) != nil
            || reader.value(forKey: "content", inObject: 0) != nil { return 0 }
        return reader.value(forKey: "story", inObject: 0)
    }

    /// The digest of a file that holds one story: its bytes'.
    static func digest(of bytes: [UInt8]) -> String {
        var fingerprint = Fingerprint()
        fingerprint.combine(bytes: bytes)
        return fingerprint.hex
    }

    private mutating func add(
        _ tape: JSONTape, _ reader: JSONTape.Reader, _ index: Int, entry: String?, digest: String? = nil, file: String,
        to list: WritableKeyPath<StoryFile, [Entry]>
    ) {
        let prefix = entry.map { "\($0): " } ?? ""
        guard reader.kind(at: index) == .object else {
            problems.append(SourceProblem(file: file, message: "\(prefix)\(StoryDecodingError.notAnObject), found \(Self.kind(reader.kind(at: index)))"))
            return
        }
        do {
            let story = try Story(tape: tape, at: index, digest: digest)
            self[keyPath: list].append(Entry(story: story, origin: StoryOrigin(file: file, entry: entry)))
        } catch {
            problems.append(SourceProblem(file: file, message: prefix + error.description))
        }
    }

    private static let shapes =
        "expected a story object (with uuid, full_slug and content), a {\"story\": …} response or a {\"stories\": […]} list"

    private static func kind(_ kind: JSONTape.Kind) -> String {
        switch kind {
        case .null: return "null"
        case .false, .true: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
