import Foundation
import StoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies the state of a folder's entries: its inode and its status change time. Adding,
/// removing or renaming an entry changes the change time, which no program can set back.
struct FolderStamp: Sendable, Equatable {
    var inode: UInt64
    var changed: Int64

    init(_ info: stat) {
        self.init(FileStamp(info))
    }

    init(_ stamp: FileStamp) {
        inode = stamp.inode
        changed = stamp.changed
    }

    init(inode: UInt64, changed: Int64) {
        self.inode = inode
        self.changed = changed
    }
}

/// The names in each folder of an output folder as the last listing read them, kept at
/// `<output>/.storysite/listing`, so that the next listing need not read a folder again whose
/// stamp (``FolderStamp``) is as recorded: it then `lstat`s the recorded names alone. Reading the
/// entries of ten thousand page folders costs more than the `lstat`s of all their files.
///
/// A folder is trusted only when it had last changed well before the listing that recorded it
/// began (``trusts(_:now:)``): a change made during or after that listing then gives it a change
/// time of its own. So a record that is missing, stale or corrupt makes a listing slower, never
/// wrong. As with Git's index, this holds for file systems whose clocks agree with this one's.
struct ListingRecord: Sendable {
    /// One recorded entry of a folder.
    struct Entry: Sendable, Equatable {
        var name: String
        var isFolder: Bool
    }

    /// One recorded folder: its stamp when read, and its entries in name order.
    struct Folder: Sendable {
        var stamp: FolderStamp
        var entries: [Entry]
    }

    /// The wall-clock time, in nanoseconds since 1970, just before the listing began.
    var takenBefore: Int64
    /// The folders recorded, keyed as ``FolderListing/folders`` keys them; never the root.
    var folders: [String: Folder]

    static let relativePath = Manifest.folderName + "/listing"
    private static let magic = "storysite-listing-1\n"

    /// How long before the listing began a folder must have last changed to be trusted: more
    /// than the kernel's coarse clock lags the wall clock, or, where times are whole seconds
    /// (FAT keeps two), more than that.
    private static let margin: Int64 = 100_000_000
    private static let coarseMargin: Int64 = 3_000_000_000

    init(takenBefore: Int64, folders: [String: Folder]) {
        self.takenBefore = takenBefore
        self.folders = folders
    }

    /// The record of what `listing` found: each folder it has a stamp of, with its entries.
    init(_ listing: FolderListing) {
        takenBefore = listing.listedAt
        folders = [:]
        folders.reserveCapacity(listing.stamps.count)
        for (relative, stamp) in listing.stamps {
            guard let entries = listing.folders[relative] else { continue }
            folders[relative] = Folder(stamp: stamp, entries: entries.map { Entry(name: $0.name, isFolder: $0.isFolder) })
        }
    }

    /// Whether `folder`, of this record, is unchanged since recorded, given what `lstat` says of
    /// it now: the same folder with the same change time, a time well before the listing began.
    func trusts(_ folder: Folder, now stamp: FileStamp) -> Bool {
        guard stamp.isFolder, folder.stamp == FolderStamp(stamp) else { return false }
        let margin = folder.stamp.changed % 1_000_000_000 == 0 ? Self.coarseMargin : Self.margin
        return folder.stamp.changed < takenBefore - margin
    }

    /// The wall-clock time now, in nanoseconds since 1970.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    // MARK: The file

    /// The record kept in `output`; nil when there is none or it cannot be read.
    static func read(in output: URL) -> ListingRecord? {
        guard let data = try? Data(contentsOf: output.appendingPathComponent(relativePath), options: .alwaysMapped) else { return nil }
        return data.withUnsafeBytes { buffer in decode(buffer) }
    }

    /// Saves the record in `output` atomically. It only saves time: a failure is ignored, and
    /// a record left as it was is as safe as any.
    func write(in output: URL) {
        try? Data(encoded()).write(to: output.appendingPathComponent(Self.relativePath), options: .atomic)
    }

    func encoded() -> [UInt8] {
        var writer = ByteRecordWriter(magic: Self.magic)
        writer.number(UInt64(bitPattern: takenBefore))
        writer.number(folders.count)
        for (relative, folder) in folders {
            writer.string(relative)
            writer.number(folder.stamp.inode)
            writer.number(UInt64(bitPattern: folder.stamp.changed))
            writer.number(folder.entries.count)
            for entry in folder.entries {
                writer.string(entry.name)
                writer.number(entry.isFolder ? 1 : 0)
            }
        }
        return writer.bytes
    }

    static func decode(_ buffer: UnsafeRawBufferPointer) -> ListingRecord? {
        guard var reader = ByteRecordReader(buffer, magic: magic), let takenBefore = reader.number(),
              let count = reader.count() else { return nil }
        var folders: [String: Folder] = [:]
        folders.reserveCapacity(count)
        for _ in 0..<count {
            guard let relative = reader.string(), !relative.isEmpty, let inode = reader.number(), let changed = reader.number(),
                  let entryCount = reader.count() else { return nil }
            var entries: [Entry] = []
            entries.reserveCapacity(entryCount)
            for _ in 0..<entryCount {
                // Names of one folder, each after the one before: a listing's, never a path.
                guard let name = reader.string(), let kind = reader.position(below: 2), !name.isEmpty, name != ".", name != "..",
                      !name.withUTF8Bytes({ $0.contains(UInt8(ascii: "/")) }), entries.last.map({ $0.name < name }) ?? true
                else { return nil }
                entries.append(Entry(name: name, isFolder: kind == 1))
            }
            folders[relative] = Folder(stamp: FolderStamp(inode: inode, changed: Int64(bitPattern: changed)), entries: entries)
        }
        guard reader.isAtEnd else { return nil }
        return ListingRecord(takenBefore: Int64(bitPattern: takenBefore), folders: folders)
    }
}
