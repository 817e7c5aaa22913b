import Foundation
import Testing
import TestSupport
@testable import StoryModel

extension StoryModelTests {
    @Suite("Files mapped into memory")
    struct MappedFileTests {
        @Test("a file's bytes are mapped as they are, and data of a part of them outlives the object and the file")
        func bytesInPlace() throws {
            let folder = try TemporaryFolder()
            let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let url = folder.path("kept")
            try Data(bytes).write(to: url)
            let part: Data
            do {
                let file = try #require(MappedFile(path: url.path))
                #expect(Array(file.bytes) == bytes)
                part = file.data(100..<4_200)
                #expect(file.contains(UnsafeRawBufferPointer(rebasing: file.bytes[100..<200])))
                #expect(!bytes.withUnsafeBytes { file.contains($0) })
            }
            // Replaced as a build replaces a kept file, then removed; the object is gone, the data holds it.
            try Data([1, 2, 3]).write(to: url, options: .atomic)
            try FileManager.default.removeItem(at: url)
            #expect(Array(part) == Array(bytes[100..<4_200]))
        }

        @Test("a missing file and a folder map to nothing; an empty file to no bytes")
        func nothingToMap() throws {
            let folder = try TemporaryFolder()
            #expect(MappedFile(path: folder.path("missing").path) == nil)
            #expect(MappedFile(path: folder.url.path) == nil)
            let empty = try #require(MappedFile(path: try folder.write("empty", "").path))
            #expect(empty.bytes.isEmpty)
            #expect(empty.data(0..<0).isEmpty)
        }
    }
}
