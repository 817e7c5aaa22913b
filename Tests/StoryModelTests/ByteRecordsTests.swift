import Foundation
import Testing
import TestSupport
@testable import StoryModel

extension StoryModelTests {
    @Suite("Binary records of the build cache")
    struct ByteRecordsTests {
        private static let magic = "test records 1\n"

        @Test("a writer that continues a file copies its records as they are, and adds new strings to its table")
        func continuing() throws {
            var first = ByteRecordWriter(magic: Self.magic)
            first.string("alpha")
            first.json(.object(JSONObject(["name": .string("beta"), "count": .number(2)])))
            first.string("gamma")
            let firstBytes = Data(first.bytes)

            var copied: [UInt8] = []
            var second: ByteRecordWriter?
            try firstBytes.withUnsafeBytes { buffer in
                var reader = try #require(ByteRecordReader(buffer, magic: Self.magic))
                #expect(reader.string() == "alpha")
                let start = reader.offset
                #expect(reader.json() == .object(JSONObject(["name": .string("beta"), "count": .number(2)])))
                let record = start..<reader.offset
                copied = Array(firstBytes[record])
                var writer = ByteRecordWriter(magic: Self.magic, continuing: reader)
                writer.append(record: record, of: firstBytes)
                writer.string("delta")
                writer.string("alpha")
                second = writer
            }
            let secondBytes = try #require(second).bytes
            #expect(secondBytes.count > firstBytes.count)
            #expect(secondBytes.suffix(copied.count + 2).prefix(copied.count).elementsEqual(copied), "the record, byte for byte")
            try secondBytes.withUnsafeBytes { buffer in
                var reader = try #require(ByteRecordReader(buffer, magic: Self.magic))
                #expect(reader.json() == .object(JSONObject(["name": .string("beta"), "count": .number(2)])))
                #expect(reader.string() == "delta")
                #expect(reader.string() == "alpha")
                #expect(reader.isAtEnd)
            }
        }

        @Test("thousands of strings written twice each are in the table once, and every one reads back byte for byte")
        func manyStringsOnce() throws {
            let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
            let distinct = ["", composed, decomposed] + (0..<5_000).map { "8b2faab3-724a-c25b-5197-\(String($0, radix: 16))" }
            var writer = ByteRecordWriter(magic: Self.magic)
            for string in distinct + distinct.reversed() { writer.string(string) }
            var once = ByteRecordWriter(magic: Self.magic)
            for string in distinct { once.string(string) }
            let tableBytes = once.bytes.count - once.records.count
            #expect(writer.bytes.count - writer.records.count == tableBytes, "the repeats add nothing to the table")

            let bytes = Data(writer.bytes)
            try bytes.withUnsafeBytes { buffer in
                var reader = try #require(ByteRecordReader(buffer, magic: Self.magic))
                for expected in distinct + distinct.reversed() {
                    let read = reader.string()
                    #expect(read.map { Array($0.utf8) } == Array(expected.utf8))
                }
                #expect(reader.isAtEnd)
            }
        }

        @Test("a JSON value written with its strings in place reads back the same, with only its keys in the table")
        func jsonWithStringsInPlace() throws {
            let head = JSONValue.object(JSONObject([
                "uuid": .string("8b2faab3-724a-c25b-5197-a4f879de0af4"), "name": .string("Ünïcode name"), "id": .number(2),
                "tag_list": .array([.string("news"), .null, .bool(true)]), "nested": .object(JSONObject(["slug": .string("post-1")])),
            ]))
            var inPlace = ByteRecordWriter(magic: Self.magic)
            inPlace.json(head, inlineStrings: true)
            let bytes = Data(inPlace.bytes)
            try bytes.withUnsafeBytes { buffer in
                var reader = try #require(ByteRecordReader(buffer, magic: Self.magic))
                #expect(reader.json() == head)
                #expect(reader.isAtEnd)
            }
            // The table holds the six keys alone: the values are in the records.
            var keys = ByteRecordWriter(magic: Self.magic)
            for key in ["uuid", "name", "id", "tag_list", "nested", "slug"] { keys.string(key) }
            #expect(bytes.count - inPlace.records.count == keys.bytes.count - keys.records.count)
        }

        @Test("a JSON value is passed over exactly where it would be read: whole, cut anywhere, or with any byte changed")
        func skipMatchesRead() throws {
            let value = JSONValue.object(JSONObject([
                "name": .string("A Post"), "id": .number(42), "draft": .bool(false), "none": .null, "score": .number(-0.5),
                "tags": .array([.string("news"), .array([]), .object(JSONObject())]), "meta": .object(JSONObject(["deep": .array([.bool(true)])])),
            ]))
            for inlineStrings in [false, true] {
                var writer = ByteRecordWriter(magic: Self.magic)
                writer.json(value, inlineStrings: inlineStrings)
                let whole = writer.bytes
                let start = try Data(whole).withUnsafeBytes { try #require(ByteRecordReader($0, magic: Self.magic)).offset }
                var variants = (start..<whole.count).map { Array(whole.prefix($0)) }
                for position in start..<whole.count {
                    for byte: UInt8 in [0, 1, 3, 4, 5, 6, 7, 0x7F, 0x80, 0xFF] where whole[position] != byte {
                        var changed = whole
                        changed[position] = byte
                        variants.append(changed)
                    }
                }
                for bytes in [whole] + variants {
                    Data(bytes).withUnsafeBytes { buffer in
                        guard var read = ByteRecordReader(buffer, magic: Self.magic) else { return }
                        var skipped = read
                        let readValue = read.json()
                        let skippedOK = skipped.skipJSON()
                        #expect(skippedOK == (readValue != nil), "\(bytes.suffix(bytes.count - start))")
                        if skippedOK { #expect(skipped.offset == read.offset) }
                    }
                }
            }
        }

        @Test("a part written with its length is passed over and read later with the table alone; strings written in place stay out of the table")
        func partsReadLater() throws {
            var writer = ByteRecordWriter(magic: Self.magic)
            writer.lengthPrefixed { part in
                part.string("later")
                part.number(7)
            }
            writer.inlineString("d1g3st")
            writer.optionalInlineString("posts/in-place")
            writer.optionalInlineString(nil)
            writer.string("after")
            let bytes = Data(writer.bytes)
            #expect(writer.records.count < bytes.count)
            try bytes.withUnsafeBytes { buffer in
                var reader = try #require(ByteRecordReader(buffer, magic: Self.magic))
                let counted = reader.count()
                let length = try #require(counted)
                let part = reader.offset
                let skipped = reader.skip(length)
                #expect(skipped)
                #expect(reader.inlineString() == "d1g3st")
                #expect(reader.optionalInlineString() == .some("posts/in-place"))
                #expect(reader.optionalInlineString() == .some(nil))
                #expect(reader.string() == "after")
                #expect(reader.isAtEnd)
                let pastTheEnd = reader.skip(1)
                #expect(!pastTheEnd)

                var later = ByteRecordReader(buffer, table: reader.table, at: part)
                #expect(later.string() == "later")
                #expect(later.number() == 7)
                #expect(later.offset == part + length)
            }
            // The table holds "later" and "after" alone: the digest and the slug are in the records.
            var table = ByteRecordWriter(magic: Self.magic)
            table.string("later")
            table.string("after")
            #expect(bytes.count - writer.records.count == table.bytes.count - table.records.count)
        }

        @Test("a file whose table has grown past twice its size when last written whole, and a thousand, is not worth continuing")
        func compaction() throws {
            var bytes = ByteRecordWriter(magic: Self.magic).bytes
            for round in 0..<3 {
                var next: ByteRecordWriter?
                try bytes.withUnsafeBytes { buffer in
                    let reader = try #require(ByteRecordReader(buffer, magic: Self.magic))
                    #expect(reader.isWorthContinuing == (round < 2), "round \(round)")
                    var writer = ByteRecordWriter(magic: Self.magic, continuing: reader)
                    for index in 0..<600 { writer.string("round \(round) string \(index)") }
                    next = writer
                }
                bytes = try #require(next).bytes
            }
            // Written whole, the table counts as the size it has.
            var whole = ByteRecordWriter(magic: Self.magic)
            for index in 0..<1_800 { whole.string("string \(index)") }
            let worthContinuing = whole.bytes.withUnsafeBytes { ByteRecordReader($0, magic: Self.magic)?.isWorthContinuing }
            #expect(worthContinuing == true)
        }

        @Test("numbers of every length read back, at the end of the bytes and before others; one past 64 bits or cut short does not")
        func numbers() {
            var values: [UInt64] = [0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, UInt64.max, UInt64.max - 1, 1 << 63, 1_796_680_404_035_638_468]
            for bits in 1...64 { values += [(1 << UInt64(bits - 1)) | 1, bits == 64 ? UInt64.max : (1 << UInt64(bits)) - 1] }
            for value in values {
                var bytes: [UInt8] = []
                ByteRecordWriter.append(number: value, to: &bytes)
                for trailing in [0, 1, 7, 9] {
                    let padded = bytes + [UInt8](repeating: 0xFF, count: trailing)
                    padded.withUnsafeBytes { buffer in
                        var offset = 0
                        #expect(ByteRecordReader.number(in: buffer, at: &offset) == value, "\(value), \(trailing) bytes after")
                        #expect(offset == bytes.count)
                        var cut = 0
                        let short = UnsafeRawBufferPointer(rebasing: buffer[..<(bytes.count - 1)])
                        #expect(trailing > 0 || ByteRecordReader.number(in: short, at: &cut) == nil, "\(value) cut short")
                    }
                }
            }
            // Ten bytes that go on and an eleventh that ends past 64 bits; twelve that all go on.
            for overlong in [[UInt8](repeating: 0x80, count: 10) + [0], [UInt8](repeating: 0xFF, count: 12)] {
                overlong.withUnsafeBytes { buffer in
                    var offset = 0
                    #expect(ByteRecordReader.number(in: buffer, at: &offset) == nil)
                }
            }
        }

        @Test("a file cut short, or with a count beyond its bytes, does not read")
        func corrupt() throws {
            var writer = ByteRecordWriter(magic: Self.magic)
            writer.string("alpha")
            let bytes = writer.bytes
            for broken in [Array(bytes.dropLast(3)), Array(Self.magic.utf8) + [0x80, 0x80, 0x80]] {
                broken.withUnsafeBytes { buffer in #expect(ByteRecordReader(buffer, magic: Self.magic) == nil) }
            }
        }

        @Test("records copied from a file with some replaced give the file's bytes with the replacements in their places, wherever they are")
        func recordsReplaced() {
            // Twenty records of 5,000 bytes each, the first 3 bytes of a header before them.
            let records = (0..<20).map { record in [UInt8](repeating: UInt8(record), count: 5_000) }
            let file = Data([9, 9, 9] + records.joined())
            let ranges = (0..<20).map { 3 + $0 * 5_000..<3 + ($0 + 1) * 5_000 }
            for replaced in [[], [0], [19], [0, 1, 2], [4, 5, 11, 19], Array(0..<20)] {
                var writer = ByteRecordWriter(magic: Self.magic)
                writer.append(records: 3..<file.count, of: file, replacing: replaced.map { ranges[$0] }) { writer, index in
                    if replaced[index] % 2 == 0 { writer.raw([UInt8(100 + replaced[index])]) }
                }
                // A replacement is its byte with its count before it, as `raw` writes it.
                let expected = (0..<20).flatMap { record -> [UInt8] in
                    if !replaced.contains(record) { return records[record] }
                    return record % 2 == 0 ? [1, UInt8(100 + record)] : []
                }
                #expect(writer.records.bytes == expected, "\(replaced)")
            }
        }

        @Test("records past a mebibyte are ended into pieces, parked in a store when there is one, and the file is byte for byte the same")
        func parkedPieces() throws {
            let folder = try TemporaryFolder()
            let store = try #require(TapeStore(folder: folder.url.path))
            func written(parking: TapeStore?) -> ByteRecordWriter {
                var writer = ByteRecordWriter(magic: Self.magic)
                writer.parking = parking
                for record in 0..<60_000 {
                    writer.beginRecord()
                    writer.string("key \(record % 7)")
                    writer.inlineString(String(repeating: "v", count: record % 90))
                    writer.number(record)
                }
                return writer
            }
            let inMemory = written(parking: nil).file
            let parked = written(parking: store).file
            #expect(inMemory.count > 2 << 20)
            #expect(inMemory.chunks.count > 2, "ended into pieces")
            #expect(!inMemory.chunks.contains { if case .parked = $0 { true } else { false } })
            #expect(parked.chunks.count { if case .parked = $0 { true } else { false } } >= 2)
            #expect(parked.bytes == inMemory.bytes)
            var outer = ByteRecordWriter(magic: Self.magic)
            outer.part(parked)
            #expect(outer.file.chunks.contains { if case .parked = $0 { true } else { false } }, "a parked piece stays parked in a part")
            let url = folder.path("records")
            try parked.write(to: url)
            #expect(Array(try Data(contentsOf: url)) == inMemory.bytes)
        }

        @Test("large raw bytes and parts are kept as pieces of their own, and the file written from its pieces reads back whole")
        func pieces() throws {
            let large = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            var part = ByteRecordWriter(magic: Self.magic)
            part.string("inner")
            part.raw(large)
            var writer = ByteRecordWriter(magic: Self.magic)
            writer.string("outer")
            writer.raw([1, 2, 3])
            writer.part(part.file)
            writer.number(7)
            let file = writer.file
            #expect(file.chunks.contains { if case .bytes(let bytes) = $0 { bytes == large } else { false } }, "the large bytes are not copied into the records")
            #expect(file.count == writer.bytes.count)

            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storysite-chunks-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("records")
            try Data("an older file".utf8).write(to: url)
            try file.write(to: url)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["records"])
            let read = Array(try Data(contentsOf: url))
            #expect(read == writer.bytes)
            try read.withUnsafeBytes { buffer in
                var reader = try #require(ByteRecordReader(buffer, magic: Self.magic))
                #expect(reader.string() == "outer")
                #expect(reader.raw().map(Array.init) == [1, 2, 3])
                let part = reader.part()
                let range = try #require(part)
                var inner = try #require(ByteRecordReader(UnsafeRawBufferPointer(rebasing: buffer[range]), magic: Self.magic))
                #expect(inner.string() == "inner")
                #expect(inner.raw().map(Array.init) == large)
                #expect(inner.isAtEnd)
                #expect(reader.number() == 7 && reader.isAtEnd)
            }
            #expect(throws: (any Error).self) { try file.write(to: folder.appendingPathComponent("missing/records")) }
        }
    }
}
