import Dispatch
import Foundation
import Testing
import TestSupport
@testable import StoryModel

extension StoryModelTests {
    @Suite("A story's head read in place from a kept file")
    struct KeptHeadTests {
        private static let magic = "test heads 1\n"

        private static let head = JSONObject([
            "name": .string("A Post"), "id": .number(42), "uuid": .string("0f4e2c1a-6a3b-4c2d-9e8f-1a2b3c4d5e6f"),
            "slug": .string("post"), "full_slug": .string("blog/post"), "published_at": .string("2024-05-01T10:00:00.000Z"),
            "tag_list": .array([.string("news"), .string("swift")]), "is_startpage": .bool(false),
            "position": .number(-3), "meta": .object(JSONObject(["nested": .array([.null, .bool(true)])])),
        ])

        /// A file of `head` (as the parsed files cache writes heads), then the string "after".
        private static func file(of head: JSONObject) -> Data {
            var writer = ByteRecordWriter(magic: magic)
            writer.json(.object(head), inlineStrings: true)
            writer.string("after")
            return Data(writer.bytes)
        }

        /// The head read from `file`, and what the reader reads after it.
        private static func read(_ file: Data) -> (head: KeptHead?, next: String?) {
            file.withUnsafeBytes { buffer in
                guard var reader = ByteRecordReader(buffer, magic: magic) else { return (nil, nil) }
                let head = KeptHead.Reader(table: reader.table).read(&reader, in: file)
                return (head, head == nil ? nil : reader.string())
            }
        }

        @Test("reads the keys a story is known by at once, the whole head when asked, and leaves the reader past it")
        func readsInPlace() throws {
            let (read, next) = Self.read(Self.file(of: Self.head))
            let head = try #require(read)
            #expect(next == "after")
            #expect(head.encoding.object == Self.head)
            #expect(head.uuid == Self.head["uuid"] && head.fullSlug == .string("blog/post"))
            #expect(head.fields.name == .string("A Post") && head.fields.slug == .string("post") && head.fields.id == .number(42))
            #expect(head.fields.isStartpage == .bool(false) && head.fields.isFolder == nil)
        }

        @Test("a head that is not an object, or is cut short, or names a string the table lacks is not read")
        func refusesCorrupt() throws {
            var notObject = ByteRecordWriter(magic: Self.magic)
            notObject.json(.array([.string("x")]), inlineStrings: true)
            #expect(Self.read(Data(notObject.bytes)).head == nil)

            // Cut anywhere inside the head: from past its first byte (after the string table) to
            // before its last (the string after it is one byte, its index in the table).
            let whole = Self.file(of: Self.head)
            let headStart = try whole.withUnsafeBytes { try #require(ByteRecordReader($0, magic: Self.magic)).offset }
            for cut in headStart + 1..<whole.count - 1 {
                #expect(Self.read(whole.prefix(cut)).head == nil, "cut at \(cut) of \(whole.count)")
            }

            // A value (not one read at once) whose table string is past the table's end.
            var writer = ByteRecordWriter(magic: Self.magic)
            writer.number(6)
            writer.number(2)
            writer.string("uuid")
            writer.json(.string("u"), inlineStrings: true)
            writer.string("other")
            writer.number(4)
            writer.number(99)
            #expect(Self.read(Data(writer.bytes)).head == nil)
        }

        @Test("a story made from a kept head is the story made from the head as an object, read whole once whichever threads ask")
        func storyOfKeptHead() throws {
            for head in [Self.head, JSONObject(["uuid": .string("u"), "full_slug": .string("docs/"), "is_folder": .bool(true)])] {
                let kept = try #require(Self.read(Self.file(of: head)).head)
                let fromKept = try Story(keptHead: kept, digest: "d") { nil }
                let fromObject = try Story(head: head, digest: "d") { nil }
                #expect(fromKept.uuid == fromObject.uuid && fromKept.id == fromObject.id && fromKept.name == fromObject.name)
                #expect(fromKept.slug == fromObject.slug && fromKept.fullSlug == fromObject.fullSlug)
                #expect(fromKept.startPageFolder == fromObject.startPageFolder)
                #expect(fromKept.head == head && fromKept.field("published_at") == head["published_at"])
                #expect(fromKept.raw == head, "a file that no longer holds the story reads as its head")
            }
            // Read whole by the first thread that asks, every thread finding the same head.
            let kept = try #require(Self.read(Self.file(of: Self.head)).head)
            let story = try Story(keptHead: kept, digest: "d") { nil }
            let heads = Locked([JSONObject]())
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let head = story.head
                heads.withLock { $0.append(head) }
            }
            #expect(heads.withLock { $0 } == Array(repeating: Self.head, count: 8))

            let withoutUUID = try #require(Self.read(Self.file(of: JSONObject(["full_slug": .string("a")]))).head)
            #expect(throws: StoryDecodingError.missingKeys(["uuid"])) { try Story(keptHead: withoutUUID, digest: "d") { nil } }
        }
    }
}
