import Foundation
import Testing
import TestSupport
@testable import StoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoryModelTests {
    @Suite("What a listing keeps of an entry's stat")
    struct FileStampTests {
        private static func lstatOf(_ path: String) throws -> stat {
            var info = stat()
            try #require(lstat(path, &info) == 0, "lstat \(path)")
            return info
        }

        @Test("a file's stamp keeps its type, size, inode and both times to the nanosecond")
        func fileStamp() throws {
            let folder = try TemporaryFolder()
            try folder.write("page.html", "<p>hello</p>")
            let path = folder.path("page.html").path
            // A time with nanoseconds of its own, so that a stamp that kept seconds alone would differ.
            var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 123_456_789), timespec(tv_sec: 1_700_000_001, tv_nsec: 987_654_321)]
            try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
            let info = try Self.lstatOf(path)
            let stamp = FileStamp(info)
            #expect(stamp.isRegularFile && !stamp.isFolder && !stamp.isSymbolicLink)
            #expect(stamp.size == 12)
            #expect(stamp.inode == UInt64(info.st_ino))
            #expect(stamp.modified == 1_700_000_001_987_654_321)
            #expect(stamp.changed == Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
            #expect(stamp.mode == UInt32(info.st_mode))
        }

        @Test("a folder and a symbolic link are told apart from files")
        func folderAndLink() throws {
            let folder = try TemporaryFolder()
            try folder.write("blog/post.json", "{}")
            try FileManager.default.createSymbolicLink(atPath: folder.path("link").path, withDestinationPath: "blog")
            let folderStamp = FileStamp(try Self.lstatOf(folder.path("blog").path))
            let linkStamp = FileStamp(try Self.lstatOf(folder.path("link").path))
            #expect(folderStamp.isFolder && !folderStamp.isRegularFile && !folderStamp.isSymbolicLink)
            #expect(linkStamp.isSymbolicLink && !linkStamp.isFolder && !linkStamp.isRegularFile)
        }
    }
}
