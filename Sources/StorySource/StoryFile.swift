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

    /// Reads and decodes the file at `path`, shown to the user as `shownAs`.
    init(path: String, shownAs file: String) {
        let value: JSONValue
        let bytes: [UInt8]
        do {
            bytes = try FolderScan.contents(of: path)
            value = try JSONValue(parsing: bytes)
        } catch let error as FolderScan.Failure {
            problems.append(SourceProblem(file: file, message: "cannot read the file: \(error.reason)"))
            return
        } catch let error as JSONParseError {
            problems.append(SourceProblem(file: file, line: error.line, column: error.column, message: error.message))
            return
        } catch {
            preconditionFailure("reading a file throws only FolderScan.Failure or JSONParseError")
        }
        guard case .object(let object) = value else {
            problems.append(SourceProblem(file: file, message: "expected a JSON object, found \(Self.kind(of: value)); \(Self.shapes)"))
            return
        }
        // A file that holds one story is hashed as bytes, much faster than walking its tree.
        if let story = Self.singleStory(in: object) {
            add(story, entry: nil, digest: Self.digest(of: bytes), file: file, to: \.stories)
        } else if let list = object["stories"] {
            guard case .array(let elements) = list else {
                problems.append(SourceProblem(file: file, message: "'stories' must be an array of story objects, found \(Self.kind(of: list))"))
                return
            }
            for (index, element) in elements.enumerated() {
                add(element, entry: "stories[\(index)]", file: file, to: \.stories)
            }
        } else {
            problems.append(SourceProblem(file: file, message: "not a story: \(Self.shapes)"))
            return
        }
        for (index, element) in (object["rels"]?.arrayValue ?? []).enumerated() {
            add(element, entry: "rels[\(index)]", file: file, to: \.related)
        }
    }

    /// A file holding one deferred story (see ``ParsedFileCache``).
    init(single entry: Entry) {
        stories = [entry]
    }

    /// The story of a file that holds one: the file's object itself (a bare story) or its
    /// `story` (an API response); nil for a list or anything else.
    static func singleStory(in object: JSONObject) -> JSONValue? {
        if object["uuid"] != nil || object["full_slug"] != nil || object["content"] != nil { return .object(object) }
        return object["story"]
    }

    /// The digest of a file that holds one story: its bytes'.
    static func digest(of bytes: [UInt8]) -> String {
        var fingerprint = Fingerprint()
        fingerprint.combine(bytes: bytes)
        return fingerprint.hex
    }

    private mutating func add(
        _ value: JSONValue, entry: String?, digest: String? = nil, file: String, to list: WritableKeyPath<StoryFile, [Entry]>
    ) {
        let prefix = entry.map { "\($0): " } ?? ""
        guard case .object(let object) = value else {
            problems.append(SourceProblem(file: file, message: "\(prefix)\(StoryDecodingError.notAnObject), found \(Self.kind(of: value))"))
            return
        }
        do {
            let story = try Story(json: object, digest: digest)
            self[keyPath: list].append(Entry(story: story, origin: StoryOrigin(file: file, entry: entry)))
        } catch {
            problems.append(SourceProblem(file: file, message: prefix + error.description))
        }
    }

    private static let shapes =
        "expected a story object (with uuid, full_slug and content), a {\"story\": …} response or a {\"stories\": […]} list"

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
