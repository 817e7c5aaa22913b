import Foundation
import ParallelWork
import StoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every entry below a folder with what `lstat` says of it, read a level at a time, each level's
/// folders on at most `jobs` threads: an output folder is tens of thousands of entries, and the
/// folder fingerprint and the check for files storysite did not write both need all of them.
/// After a write of a few files, ``refresh(_:)`` brings it up to date at a cost per file.
struct FolderListing: Sendable {
    /// One entry of a folder. A folder's says only that it is one: what `stat` says of a
    /// folder changes with what it holds, which the listing has already, and leaving it out
    /// spares a `stat` for every folder (an output folder has one per page).
    struct Entry: Sendable {
        var name: String
        var stamp: FileStamp

        var isFolder: Bool { stamp.isFolder }
        var isRegularFile: Bool { stamp.isRegularFile }

        init(name: String, info: stat) {
            self.init(name: name, stamp: FileStamp(info))
        }

        /// The entry of a file or folder whose `lstat` gave `stamp`.
        init(name: String, stamp: FileStamp) {
            self.name = name
            self.stamp = stamp.isFolder ? Self.folderStamp : stamp
        }

        /// The entry of a folder (as `readdir` tells it, without a `stat`).
        init(folderNamed name: String) {
            self.name = name
            stamp = Self.folderStamp
        }

        /// What a listing keeps of every folder.
        static let folderStamp = FileStamp(mode: UInt32(S_IFDIR))
    }

    /// The entries of each folder, sorted by name, keyed by the folder's path relative to the
    /// root: `""` for the root, `"/blog"`, `"/blog/post"`.
    private(set) var folders: [String: [Entry]]
    /// Every entry in the order of ``forEach(_:)``, with its path, as read; nil after a
    /// ``refresh(_:)``, which is followed by one pass at most, and for a listing made without.
    private var ordered: [(path: String, entry: Entry)]?
    /// The folder listed.
    let root: String
    /// Whether entries at the top whose names start with a dot are left out.
    let skipsRootDotfiles: Bool

    /// A folder that could not be listed: its path relative to the root (`""`, `"/blog"`) and why.
    struct Unlistable: Error {
        var folder: String
        var reason: String
    }

    /// The stamp of each folder below the root as this listing read it or found it recorded,
    /// keyed as `folders`; none for a folder whose entries were changed since (``refresh(_:)``).
    /// What a ``ListingRecord`` of this listing records.
    private(set) var stamps: [String: FolderStamp] = [:]
    /// The wall-clock time just before the listing began, in nanoseconds since 1970.
    let listedAt: Int64
    /// The folders below the root that this listing, trusting a record, read with `readdir`
    /// rather than take from the record, and those whose entries a refresh changed since (a
    /// file written in them, a name added or removed): the next listing reads them again unless
    /// a record of this one is written.
    private(set) var foldersNewerThanRecord: Set<String> = []
    /// Whether it was listed trusting a record.
    private let trustedRecord: Bool
    /// Whether a record of this listing is worth writing for the next listing: it trusted no
    /// record, or more than one entry in a hundred is in a folder newer than the record it
    /// trusted. Reading again the few small folders a rebuild of a few pages wrote to costs the
    /// next listing less than writing a record of every folder; reading again, on every build,
    /// a folder that holds ten thousand pages costs more.
    var isWorthRecording: Bool { isWorthRecording(withNewer: []) }

    /// ``isWorthRecording`` once the folders at `newer` (keyed as ``folders``) are newer than
    /// the record too.
    func isWorthRecording(withNewer newer: Set<String>) -> Bool {
        guard trustedRecord else { return true }
        let newerEntries = foldersNewerThanRecord.union(newer).reduce(0) { $0 + (folders[$1]?.count ?? 0) }
        let below = folders.reduce(0) { $0 + ($1.key.isEmpty ? 0 : $1.value.count) }
        return newerEntries * 100 > below
    }

    /// What `lstat` says now of each of `paths` (relative to the root, without a leading
    /// slash), regular files this listing has, by path: what ``refresh(_:)`` would find of
    /// files written again in place, without a copy of the listing. Nil when one of them is
    /// not listed as a regular file or is not one now: then only a refresh tells the listing.
    func restat(_ paths: [String]) -> [String: FileStamp]? {
        var found: [String: FileStamp] = [:]
        for path in paths {
            let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
            let parent = slash.map { "/" + path[..<$0] } ?? ""
            let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
            guard let entries = folders[parent], case let position = Self.position(of: name, in: entries), position < entries.count,
                  entries[position].name == name, entries[position].isRegularFile else { return nil }
            var info = stat()
            guard lstat(root + "/" + path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            found[path] = FileStamp(info)
        }
        return found
    }

    /// Lists `root`; throws when a folder in it cannot be read, never leaving one out.
    /// `skipRootDotfiles` leaves out entries at the top whose names start with a dot (the build
    /// cache, `.git`). A folder below the root that `record` shows unchanged is not read again:
    /// its recorded entries are `lstat`ed (see ``ListingRecord``). Without `ordered`, the
    /// entries are not also kept in the order of ``forEach(_:)``, with their paths: for a listing
    /// gone through once (a hundred thousand pages' took 140 MB more).
    init(root: String, skipRootDotfiles: Bool, jobs: Int, trusting record: ListingRecord? = nil, ordered: Bool = true) throws(Unlistable) {
        listedAt = ListingRecord.now()
        trustedRecord = record != nil
        // Recorded entries are looked up from the root's descriptor, sparing the walk of the
        // root's own path for each.
        let rootDescriptor = record == nil ? -1 : open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if rootDescriptor >= 0 { close(rootDescriptor) } }
        var folders: [String: [Entry]] = [:]
        // Room for the folders the record has, the root too: grown by inserts, the tables of
        // ten thousand page folders were made again a dozen times over.
        folders.reserveCapacity((record?.folders.count ?? 0) + 1)
        stamps.reserveCapacity(record?.folders.count ?? 0)
        // Each folder read, by its number in the order read (the root's is 0): its entries and
        // the numbers of its subfolders, for the ordered copy of the entries.
        var tree: [(entries: [Entry], subfolders: [Int])] = []
        var level: [(relative: String, stamp: FileStamp?)] = [("", nil)]
        while !level.isEmpty {
            let read = ParallelWork.map(count: level.count, jobs: jobs) { index -> Result<FolderRead, Unlistable> in
                let (relative, stamp) = level[index]
                if let record, rootDescriptor >= 0,
                   let recorded = Self.recordedEntries(of: rootDescriptor, relative, stamp: stamp, in: record) {
                    return .success(recorded)
                }
                return Self.entries(of: root, relative, skipDotfiles: skipRootDotfiles && relative.isEmpty)
            }
            var next: [(relative: String, stamp: FileStamp?)] = []
            let nextNumber = tree.count + level.count
            for (folder, read) in zip(level, read) {
                let read = try read.get()
                folders[folder.relative] = read.entries
                if let stamp = read.stamp { stamps[folder.relative] = stamp }
                if record != nil && !read.isRecorded && !folder.relative.isEmpty { foldersNewerThanRecord.insert(folder.relative) }
                if ordered { tree.append((read.entries, Array(nextNumber + next.count ..< nextNumber + next.count + read.subfolders.count))) }
                for subfolder in read.subfolders { next.append((String(concatenating: folder.relative, "/", subfolder.name), subfolder.stamp)) }
            }
            level = next
        }
        self.folders = folders
        self.root = root
        self.skipsRootDotfiles = skipRootDotfiles
        self.ordered = ordered ? Self.ordered(tree) : nil
    }

    /// Reads again what `lstat` says of each of `paths` (relative to the root, without a leading
    /// slash: `blog/post/index.html`) and of every folder above it, adding what is new (a new
    /// folder with all it holds) and dropping what is gone. After a change to those paths alone,
    /// the listing is then what listing the root again would give, at a cost per path.
    mutating func refresh(_ paths: some Sequence<String>) throws(Unlistable) {
        ordered = nil
        var chain = Set<String>()
        for path in paths {
            var prefix = ""
            for component in path.partsBetweenSlashes() {
                prefix += "/" + component
                chain.insert(prefix)
            }
        }
        // A folder's path is shorter than its entries': folders above are refreshed first.
        for relative in chain.sorted(by: { $0.utf8.count < $1.utf8.count }) {
            let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/"))!
            let parent = String(relative[..<slash])
            let name = String(relative[relative.utf8.index(after: slash)...])
            guard folders[parent] != nil, !(skipsRootDotfiles && parent.isEmpty && name.utf8.first == UInt8(ascii: ".")) else { continue }
            var info = stat()
            guard lstat(root + relative, &info) == 0 else {
                guard errno == ENOENT else { throw Unlistable(folder: relative, reason: String(cString: strerror(errno))) }
                remove(name, from: parent)
                continue
            }
            let entry = Entry(name: name, info: info)
            insert(entry, into: parent)
            if entry.isFolder, folders[relative] == nil {
                let added = try FolderListing(root: root + relative, skipRootDotfiles: false, jobs: 1)
                for (folder, entries) in added.folders { folders[relative + folder] = entries }
                for (folder, stamp) in added.stamps { stamps[relative + folder] = stamp }
            } else if !entry.isFolder {
                dropFolder(relative)
            }
        }
    }

    /// Puts `entry` into the folder at `parent` in name order, in place of one of the same name.
    /// The parent's entries are now this listing's, not what its stamp was read with, unless
    /// the entry is a folder that was one already: a folder's entry says only that it is one,
    /// so a file written below it leaves its parent's names, and stamp, as they were (a page
    /// written again in a folder of ten thousand pages would otherwise leave that folder out of
    /// the record, to be read again by every listing).
    private mutating func insert(_ entry: Entry, into parent: String) {
        let position = Self.position(of: entry.name, in: folders[parent]!)
        if position < folders[parent]!.count, folders[parent]![position].name == entry.name {
            if !(entry.isFolder && folders[parent]![position].isFolder) { dropStamp(of: parent) }
            folders[parent]![position] = entry
        } else {
            dropStamp(of: parent)
            folders[parent]!.insert(entry, at: position)
        }
    }

    /// Forgets the stamp of the folder at `relative`, whose entries changed since it was taken.
    private mutating func dropStamp(of relative: String) {
        stamps[relative] = nil
        if !relative.isEmpty { foldersNewerThanRecord.insert(relative) }
    }

    /// The index of the first of `entries` (sorted by name) whose name is not below `name`.
    private static func position(of name: String, in entries: [Entry]) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].name < name { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Takes the entry named `name` out of the folder at `parent`, and what it held if a folder.
    private mutating func remove(_ name: String, from parent: String) {
        dropStamp(of: parent)
        folders[parent]!.removeAll { $0.name == name }
        dropFolder(parent + "/" + name)
    }

    /// Forgets the folder at `relative` and every folder below it.
    private mutating func dropFolder(_ relative: String) {
        guard folders[relative] != nil else { return }
        for folder in folders.keys where folder == relative || folder.hasPrefix(relative + "/") {
            folders[folder] = nil
            stamps[folder] = nil
            foldersNewerThanRecord.remove(folder)
        }
    }

    /// How many entries ``forEach(_:)`` visits.
    var count: Int { ordered?.count ?? folders.values.reduce(0) { $0 + $1.count } }

    /// Visits every entry depth-first in name order, with its path relative to the root
    /// (`blog/post/index.html`).
    func forEach(_ visit: (_ path: String, _ entry: Entry) -> Void) {
        guard let ordered else { return Self.walk(folders, visit) }
        for (path, entry) in ordered { visit(path, entry) }
    }

    /// Visits every entry that is not a folder, in the order of ``forEach(_:)``.
    func forEachFile(_ visit: (_ path: String, _ entry: Entry) -> Void) {
        forEach { path, entry in
            if !entry.isFolder { visit(path, entry) }
        }
    }

    /// Every entry of `tree` (each folder's entries and the numbers of its subfolders, the
    /// root's first) depth-first in name order, with its path: what ``forEach(_:)`` visits, made
    /// once when the listing is read, since a build goes over the entries several times and each
    /// pass would otherwise make every path again. A folder is found by its number, not its
    /// path: making the key of each of ten thousand page folders again to look it up cost a
    /// one-story rebuild ten million instructions.
    private static func ordered(_ tree: [(entries: [Entry], subfolders: [Int])]) -> [(path: String, entry: Entry)] {
        var ordered: [(path: String, entry: Entry)] = []
        ordered.reserveCapacity(tree.reduce(0) { $0 + $1.entries.count })
        func walk(_ number: Int, path folder: String) {
            var subfolders = tree[number].subfolders.makeIterator()
            for entry in tree[number].entries {
                let path = folder.isEmpty ? entry.name : String(concatenating: folder, "/", entry.name)
                ordered.append((path, entry))
                if entry.isFolder { walk(subfolders.next()!, path: path) }
            }
        }
        if !tree.isEmpty { walk(0, path: "") }
        return ordered
    }

    /// Visits every entry of `folders` depth-first in name order, making each path.
    private static func walk(_ folders: [String: [Entry]], _ visit: (_ path: String, _ entry: Entry) -> Void) {
        /// The entries of the folder at `relative` (keyed as `folders`), whose path is `path`.
        func walk(_ relative: String, path folder: String) {
            for entry in folders[relative] ?? [] {
                let path = folder.isEmpty ? entry.name : String(concatenating: folder, "/", entry.name)
                visit(path, entry)
                if entry.isFolder { walk(String(concatenating: relative, "/", entry.name), path: path) }
            }
        }
        walk("", path: "")
    }

    /// One folder's entries as a listing read them, with its stamp (none for the root) and its
    /// subfolders, with what `lstat` said of each where it was asked.
    private struct FolderRead {
        var entries: [Entry]
        var stamp: FolderStamp?
        var subfolders: [(name: String, stamp: FileStamp?)]
        /// Whether the entries are the record's, not read with `readdir`.
        var isRecorded: Bool
    }

    /// The entries `record` has of the folder at `relative` below the root open as `root`,
    /// each `lstat`ed, when the record shows the folder unchanged; nil when it must be read
    /// again: not recorded, changed, or an entry gone or of another kind. `stamp` is what `lstat`
    /// said of the folder, when its parent was read from the record.
    private static func recordedEntries(of root: Int32, _ relative: String, stamp: FileStamp?, in record: ListingRecord) -> FolderRead? {
        guard !relative.isEmpty, let recorded = record.folders[relative] else { return nil }
        guard let folderStamp = stamp ?? lstamp(of: root, relative, ""), record.trusts(recorded, now: folderStamp) else { return nil }
        var read = FolderRead(entries: [], stamp: recorded.stamp, subfolders: [], isRecorded: true)
        read.entries.reserveCapacity(recorded.entries.count)
        for recordedEntry in recorded.entries {
            guard let stamp = lstamp(of: root, relative, recordedEntry.name), stamp.isFolder == recordedEntry.isFolder else { return nil }
            read.entries.append(Entry(name: recordedEntry.name, stamp: stamp))
            if stamp.isFolder { read.subfolders.append((recordedEntry.name, stamp)) }
        }
        return read
    }

    /// What `lstat` says of `name` in the folder at `relative` (keyed as ``folders``) below the
    /// root open as `root`, or of that folder itself when `name` is empty; nil when it fails.
    /// The path is put together on the stack: made as a string for each of the twenty thousand
    /// entries of an output folder of pages, it was a tenth of the listing's instructions.
    private static func lstamp(of root: Int32, _ relative: String, _ name: String) -> FileStamp? {
        // `relative` less its leading slash is the folder's path below the root.
        let folder = relative.utf8.dropFirst(), count = folder.count + (name.isEmpty ? 0 : 1 + name.utf8.count)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 1) { path -> FileStamp? in
            var end = path.initialize(fromContentsOf: folder)
            if !name.isEmpty {
                path[end] = UInt8(ascii: "/")
                end = path[(end + 1)...].initialize(fromContentsOf: name.utf8)
            }
            path[end] = 0
            var info = stat()
            let status = path.withMemoryRebound(to: CChar.self) { fstatat(root, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) }
            return status == 0 ? FileStamp(info) : nil
        }
    }

    /// `entries` in the order of their names as strings (`<`). Names all in ASCII, as most are,
    /// are in that order when in the order of their bytes, which sort much faster: sorting the
    /// names of a content folder of 10,000 stories took a rebuild of one of them 16 million
    /// instructions.
    private static func sortedByName(_ entries: [Entry]) -> [Entry] {
        let names = entries.map(\.name)
        guard names.allSatisfy({ $0.withUTF8Bytes { $0.allSatisfy { $0 < 0x80 } } }) else { return entries.sorted { $0.name < $1.name } }
        return ByteOrder.order(of: names).map { entries[$0] }
    }

    /// The entries of the folder at `root + relative`, sorted by name, with its stamp. Each entry
    /// but a folder is `lstat`ed relative to its open folder, so the kernel does not walk the whole
    /// path again.
    private static func entries(of root: String, _ relative: String, skipDotfiles: Bool) -> Result<FolderRead, Unlistable> {
        var entries: [Entry] = []
        var failure: Unlistable?
        var folderInfo = stat()
        let complete = FolderEntries.forEach(in: root + relative, folderInfo: &folderInfo) { folder, name, type in
            if skipDotfiles && name[0] == CChar(UInt8(ascii: ".")) { return true }
            if type == Int32(DT_DIR) {
                entries.append(Entry(folderNamed: String(cString: name)))
                return true
            }
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                failure = Unlistable(folder: relative + "/" + String(cString: name), reason: String(cString: strerror(errno)))
                return false
            }
            entries.append(Entry(name: String(cString: name), info: info))
            return true
        }
        if let failure { return .failure(failure) }
        guard complete else { return .failure(Unlistable(folder: relative, reason: String(cString: strerror(errno)))) }
        entries = sortedByName(entries)
        return .success(FolderRead(
            entries: entries, stamp: relative.isEmpty ? nil : FolderStamp(folderInfo),
            subfolders: entries.filter(\.isFolder).map { ($0.name, nil) }, isRecorded: false))
    }
}
