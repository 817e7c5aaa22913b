import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("Listings that take unchanged folders from the last listing's record")
    struct ListingRecordTests {
        let folder: TemporaryFolder

        init() throws {
            folder = try TemporaryFolder()
            try folder.write("blog/index.html", "blog")
            try folder.write("blog/post/index.html", "post")
            try folder.write("about/index.html", "about")
        }

        private func listing(trusting record: ListingRecord? = nil) throws -> FolderListing {
            try FolderListing(root: folder.url.path, skipRootDotfiles: false, jobs: 2, trusting: record)
        }

        /// A record of the folder taken once its folders last changed well before: one it trusts.
        private func settledRecord() throws -> ListingRecord {
            Thread.sleep(forTimeInterval: 0.15)
            return ListingRecord(try listing())
        }

        private func paths(of listing: FolderListing) -> [String] {
            var paths: [String] = []
            listing.forEach { path, _ in paths.append(path) }
            return paths
        }

        @Test("a listing refreshed for a page whose folder's name starts with a combining mark is what listing again gives")
        func refreshAtSlashBytes() throws {
            try folder.write("m/\u{301}n/index.html", "page")
            var refreshed = try listing()
            try folder.write("m/\u{301}n/index.html", "page, written again")
            try folder.write("m/\u{301}n/o/index.html", "a new page below it")
            try refreshed.refresh(["m/\u{301}n/index.html", "m/\u{301}n/o/index.html"])
            let listedAgain = try listing()
            #expect(paths(of: refreshed) == paths(of: listedAgain))
            #expect(FolderFingerprint.of(refreshed) == FolderFingerprint.of(listedAgain))
        }

        @Test("folders unchanged since the record are not read again, and the listing is what reading them gives")
        func unchangedFolders() throws {
            let record = try settledRecord()
            #expect(record.folders.keys.sorted() == ["/about", "/blog", "/blog/post"])

            let trusted = try listing(trusting: record)
            #expect(trusted.foldersNewerThanRecord.isEmpty)
            #expect(FolderFingerprint.of(trusted) == FolderFingerprint.of(try listing()))
            #expect(paths(of: trusted) == ["about", "about/index.html", "blog", "blog/index.html", "blog/post", "blog/post/index.html"])
            #expect(trusted.count == 6)
            #expect(try listing().count == 6)
        }

        @Test("a listing is worth recording when it trusted no record, or more than one entry in a hundred is in a folder changed since")
        func worthRecording() throws {
            for page in 0..<200 { try folder.write("pages/\(page)/index.html", "page \(page)") }
            #expect(try listing().isWorthRecording)
            let record = try settledRecord()
            #expect(try listing(trusting: record).isWorthRecording == false)
            // Below the top: 4 entries of blog and about, 200 of pages, 1 in each page's folder.
            try folder.write("pages/7/notes.txt", "mine")
            try folder.write("pages/8/notes.txt", "mine")
            let twoChanged = try listing(trusting: record)
            #expect(twoChanged.foldersNewerThanRecord == ["/pages/7", "/pages/8"])
            #expect(twoChanged.isWorthRecording == false, "4 of 406 entries are read again at less cost than a new record")
            for page in 9..<12 { try folder.write("pages/\(page)/notes.txt", "mine") }
            #expect(try listing(trusting: record).isWorthRecording, "10 of 409 are worth a new record")
        }

        @Test("a changed folder that holds many pages is worth a new record, though it is one folder of hundreds")
        func largeFolderWorthRecording() throws {
            for page in 0..<200 { try folder.write("pages/\(page)/index.html", "page \(page)") }
            let record = try settledRecord()
            try folder.write("pages/notes.txt", "mine")
            let changed = try listing(trusting: record)
            #expect(changed.foldersNewerThanRecord == ["/pages"])
            #expect(changed.isWorthRecording, "201 of 405 entries are read again")
        }

        @Test("a file written again below a recorded folder leaves that folder's stamp, and only its own folder is newer than the record")
        func refreshKeepsFolderStamps() throws {
            for page in 0..<200 { try folder.write("pages/\(page)/index.html", "page \(page)") }
            let record = try settledRecord()
            var refreshed = try listing(trusting: record)
            try folder.write("pages/7/index.html", "page 7, edited")
            try refreshed.refresh(["pages/7/index.html"])
            #expect(refreshed.stamps["/pages"] == record.folders["/pages"]?.stamp)
            #expect(refreshed.stamps["/pages/7"] == nil)
            #expect(refreshed.foldersNewerThanRecord == ["/pages/7"])
            #expect(FolderFingerprint.of(refreshed) == FolderFingerprint.of(try listing()))
            // A new file in a page's folder is a new name there.
            try folder.write("pages/8/notes.txt", "mine")
            try refreshed.refresh(["pages/8/notes.txt"])
            #expect(refreshed.stamps["/pages"] != nil && refreshed.stamps["/pages/8"] == nil)
            #expect(FolderFingerprint.of(refreshed) == FolderFingerprint.of(try listing()))
        }

        @Test("a file added to a recorded folder is found: the folder's change time is no longer the one recorded")
        func addedFile() throws {
            let record = try settledRecord()
            try folder.write("blog/post/notes.txt", "mine")
            try FileManager.default.createDirectory(at: folder.path("about/team"), withIntermediateDirectories: false)

            let trusted = try listing(trusting: record)
            #expect(trusted.foldersNewerThanRecord == ["/blog/post", "/about", "/about/team"], "about/team read for the first time")
            #expect(paths(of: trusted).contains("blog/post/notes.txt"))
            #expect(paths(of: trusted).contains("about/team"))
            #expect(FolderFingerprint.of(trusted) == FolderFingerprint.of(try listing()))
        }

        @Test("a file changed in place, in a folder taken from the record, has what lstat says of it now")
        func changedFile() throws {
            let record = try settledRecord()
            try folder.write("blog/post/index.html", "a longer post")

            let trusted = try listing(trusting: record)
            #expect(trusted.foldersNewerThanRecord.isEmpty)
            var size: Int?
            trusted.forEachFile { path, entry in if path == "blog/post/index.html" { size = Int(entry.stamp.size) } }
            #expect(size == 13)
            #expect(FolderFingerprint.of(trusted) == FolderFingerprint.of(try listing()))
        }

        @Test("a folder that changed just before the recording listing began is read again, though its stamp is as recorded")
        func racyFolders() throws {
            // Changed within the margin of the listing that recorded them: a change made during
            // that listing could have the same change time, so none of them is trusted.
            let record = ListingRecord(try listing())
            let again = try listing(trusting: record)
            #expect(again.foldersNewerThanRecord.count == 3)
        }

        @Test("a removed folder, or one that became a file, is listed as it is now")
        func replacedFolder() throws {
            let record = try settledRecord()
            try FileManager.default.removeItem(at: folder.path("blog/post"))
            try folder.write("blog/post", "now a file")

            let trusted = try listing(trusting: record)
            #expect(trusted.folders["/blog/post"] == nil)
            #expect(FolderFingerprint.of(trusted) == FolderFingerprint.of(try listing()))
        }

        @Test("the record reads back as written, and a truncated or malformed one is not read at all")
        func encoding() throws {
            let record = try settledRecord()
            let bytes = record.encoded()
            let decoded = try #require(bytes.withUnsafeBytes(ListingRecord.decode))
            #expect(decoded.takenBefore == record.takenBefore)
            #expect(decoded.folders.keys.sorted() == record.folders.keys.sorted())
            for (relative, recorded) in record.folders {
                #expect(decoded.folders[relative]?.stamp == recorded.stamp)
                #expect(decoded.folders[relative]?.entries == recorded.entries)
            }

            #expect(Array(bytes.dropLast()).withUnsafeBytes(ListingRecord.decode) == nil)
            #expect((bytes + [0]).withUnsafeBytes(ListingRecord.decode) == nil)
            var escaping = record
            escaping.folders["/blog"]?.entries = [.init(name: "../../etc", isFolder: true)]
            #expect(escaping.encoded().withUnsafeBytes(ListingRecord.decode) == nil)
            var unsorted = record
            unsorted.folders["/blog"]?.entries.reverse()
            #expect(unsorted.encoded().withUnsafeBytes(ListingRecord.decode) == nil)
        }
    }

    @Suite("The listing record of an output folder")
    struct OutputListingRecordTests {
        let workspace: TemporaryFolder
        let writer: SiteWriter

        init() throws {
            workspace = try TemporaryFolder()
            writer = SiteWriter(output: workspace.path("Output"), displayPath: "Output")
        }

        private var output: URL { workspace.path("Output") }

        /// The output folder written, then settled and its record brought up to date, as the next
        /// build's check of the output folder does.
        private func settledOutput() throws {
            _ = try writer.write(PreviousOutputTests.pages())
            Thread.sleep(forTimeInterval: 0.15)
            #expect(writer.currentFingerprint() == FolderFingerprint.of(output, skipRootDotfiles: true))
        }

        @Test("a file put by hand into a recorded page folder still stops the write")
        func foreignFile() throws {
            try settledOutput()
            let record = try #require(ListingRecord.read(in: output))
            #expect(record.folders.count == 40)
            let trusted = try FolderListing(root: output.path, skipRootDotfiles: true, jobs: 2, trusting: record)
            #expect(trusted.foldersNewerThanRecord.isEmpty)

            try workspace.write("Output/page-7/notes.txt", "mine")
            let previous = writer.readPreviousOutput()
            #expect(previous.listing?.foldersNewerThanRecord == ["/page-7"])
            #expect(previous.problem?.message.contains("'page-7/notes.txt'") == true)
        }

        @Test("a page changed by hand in a recorded folder is not kept as intact")
        func changedPage() throws {
            try settledOutput()
            try workspace.write("Output/page-3/index.html", "edited by hand")
            let intact = writer.readPreviousOutput().intactFiles()
            #expect(intact.count == 39)
            #expect(intact["page-3/index.html"] == nil)
        }

        @Test("after a write in place, the folders written to are left out of the record, to be read again")
        func recordAfterWriteInPlace() throws {
            try settledOutput()
            _ = try writer.write(PreviousOutputTests.pages(first: "changed"), over: writer.readPreviousOutput())
            let record = try #require(ListingRecord.read(in: output))
            #expect(record.folders["/page-0"] == nil)
            #expect(record.folders["/page-5"] != nil)
        }

        @Test("pages written again in place into a folder of many, its record trusted, give the folder's fingerprint as a listing of it would")
        func fingerprintAfterWriteInPlace() throws {
            func pages(_ round: Int) -> [OutputFile] {
                (0..<300).map { OutputFile(path: "page-\($0)/index.html", text: $0 % 150 == 7 ? "page \($0), round \(round)" : "page \($0)") }
            }
            _ = try writer.write(pages(0))
            Thread.sleep(forTimeInterval: 0.15)
            #expect(writer.currentFingerprint() == FolderFingerprint.of(output, skipRootDotfiles: true))
            let record = try #require(ListingRecord.read(in: output))
            for round in 1...3 {
                let previous = writer.readPreviousOutput()
                #expect(previous.listing?.foldersNewerThanRecord.count == (round == 1 ? 0 : 2), "round \(round)")
                let written = try writer.write(pages(round), over: previous)
                #expect(written.summary.written == 2, "round \(round)")
                #expect(written.fingerprint == FolderFingerprint.of(output, skipRootDotfiles: true), "round \(round)")
                // Two page folders, two entries of 300, are read again at less cost than a new record.
                #expect(ListingRecord.read(in: output)?.takenBefore == record.takenBefore, "round \(round)")
            }
        }

        @Test("an unreadable record is no more than no record")
        func corruptRecord() throws {
            try settledOutput()
            try workspace.write("Output/" + ListingRecord.relativePath, "not a record")
            let previous = writer.readPreviousOutput()
            #expect(previous.problem == nil)
            #expect(previous.listing?.isWorthRecording == true, "it trusted no record")
            #expect(previous.fingerprint == FolderFingerprint.of(output, skipRootDotfiles: true))
        }
    }
}
