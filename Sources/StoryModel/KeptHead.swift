import Foundation

/// A story's head (every key of its object but `content`) in the file a build kept it in, as
/// ``ByteRecordWriter/json(_:inlineStrings:)`` wrote it: the fields a ``Story`` is made with are
/// read when the file is (``Reader``), the rest only when something asks for the whole head
/// (``Encoding/object``). A rebuild after one edit keeps the heads of all the stories and shows
/// those of a few; a Storyblok story's head has twenty keys and more, most of which a build
/// never reads.
public struct KeptHead: Sendable {
    /// Where the whole head is: the file's bytes (mapped, most often), its string table, and the
    /// head's place in it.
    struct Encoding: Sendable {
        let file: Data
        let table: ByteRecordTable
        var range: Range<Int>

        /// The whole head, read from the file; empty if the file changed in place since it was
        /// first read (a build replaces its files, never writes over them).
        var object: JSONObject {
            let read = file.withUnsafeBytes { bytes in
                var reader = ByteRecordReader(bytes, table: table, at: range.lowerBound)
                return reader.json()?.objectValue
            }
            return read ?? JSONObject()
        }
    }

    private(set) var encoding: Encoding
    /// The values of `uuid` and `full_slug`, and the other fields a story is made with.
    private(set) var uuid: JSONValue?
    private(set) var fullSlug: JSONValue?
    private(set) var fields = StoryFields()

    /// Reads the heads of one kept file. The keys of the fields a story is made with are found
    /// among the strings of its table once, so that telling a head's keys apart costs an index each.
    public struct Reader {
        /// The fields a head's key may be.
        private enum Field {
            case uuid, fullSlug, name, slug, id, isStartpage, isFolder
        }

        /// The field each string of the table names as a key, if any.
        private let fieldOfString: [Field?]

        /// A reader of the heads in a file whose string table is `table`.
        public init(table: ByteRecordTable) {
            let fields: [(key: String, field: Field)] = [
                ("uuid", .uuid), ("full_slug", .fullSlug), ("name", .name), ("slug", .slug), ("id", .id), ("is_startpage", .isStartpage),
                ("is_folder", .isFolder),
            ]
            // By their bytes: a key is found as it was written.
            fieldOfString = table.strings.map { string in fields.first { $0.key.hasSameUTF8(as: string) }?.field }
        }

        /// The head `reader` reads next, from the bytes of `file`, with the reader moved past it;
        /// nil when it is not an object as ``ByteRecordWriter/json(_:inlineStrings:)`` writes one,
        /// or is cut short. All of it is checked, so that reading the rest later cannot fail.
        /// Where a key repeats, the first value counts, as for a ``JSONObject``.
        public func read(_ reader: inout ByteRecordReader, in file: Data) -> KeptHead? {
            let start = reader.offset
            guard reader.number() == 6, let count = reader.count() else { return nil }
            var head = KeptHead(encoding: Encoding(file: file, table: reader.table, range: start..<start))
            for _ in 0..<count {
                guard let key = reader.stringIndex() else { return nil }
                guard let field = fieldOfString[key] else {
                    guard reader.skipJSON(depth: 511) else { return nil }
                    continue
                }
                guard let value = reader.json(depth: 511) else { return nil }
                switch field {
                case .uuid: head.uuid = head.uuid ?? value
                case .fullSlug: head.fullSlug = head.fullSlug ?? value
                case .name: head.fields.name = head.fields.name ?? value
                case .slug: head.fields.slug = head.fields.slug ?? value
                case .id: head.fields.id = head.fields.id ?? value
                case .isStartpage: head.fields.isStartpage = head.fields.isStartpage ?? value
                case .isFolder: head.fields.isFolder = head.fields.isFolder ?? value
                }
            }
            head.encoding.range = start..<reader.offset
            return head
        }
    }

    private init(encoding: Encoding) {
        self.encoding = encoding
    }
}
