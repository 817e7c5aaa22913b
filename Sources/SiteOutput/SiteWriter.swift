import Foundation
import ParallelWork
import StoryModel
#if canImport(Glibc)
import Glibc
#endif

/// Writes a built site into its output folder without ever leaving it half-written.
///
/// Every file goes into a staging folder beside the output folder, which then takes the output
/// folder's place; a failure at any point leaves the previous output exactly as it was. A build
/// into a folder without a manifest (a first build, as in CI) opens the staging folder before
/// it renders (``StagingFolder``), so that pages go there as they are rendered; a rebuild opens
/// it once more pages changed than a write in place takes (``PageStaging``).
/// Files whose contents did not change are carried over as hard links, so their modification
/// times stay and deploy tools see nothing new; when nothing changed at all, nothing is touched.
/// When at most a tenth of the files changed, the folder is updated in place instead (see
/// `update`), which costs per changed file rather than per file.
/// Dotfiles at the top of the output folder (`.git`, `.gitkeep`, `.nojekyll`) belong to the user
/// and are carried over as they are.
public struct SiteWriter: Sendable {
    /// What a write did.
    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        public var written: Int
        public var unchanged: Int
        public var removed: Int

        public init(written: Int, unchanged: Int, removed: Int) {
            self.written = written
            self.unchanged = unchanged
            self.removed = removed
        }

        /// `3 written, 27 unchanged, 0 removed`, as summary lines show it.
        public var description: String { "\(written) written, \(unchanged) unchanged, \(removed) removed" }
    }

    /// The output folder.
    public let output: URL
    /// The output folder as the user named it, for messages.
    public let displayPath: String

    /// How many files are written at once.
    public let jobs: Int

    public init(output: URL, displayPath: String? = nil, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        // A symbolic link (to /var/www/site, say) stays a link: the build replaces its target.
        self.output = output.standardizedFileURL.resolvingSymlinksInPath()
        self.displayPath = displayPath ?? output.relativePath
        self.jobs = jobs
    }

    /// What a write did, and the output folder's ``FolderFingerprint`` after it (skipping root
    /// dotfiles; nil when the folder could not be listed).
    public struct Written: Sendable {
        public var summary: Summary
        public var fingerprint: String?
    }

    /// How many files of a site of `count` files may change (written or removed) for a write
    /// to update the folder in place rather than replace it: a tenth.
    public static func inPlaceLimit(forFileCount count: Int) -> Int { count / 10 }

    /// The output folder as it is now (see ``PreviousOutput``), after finishing a swap a killed
    /// build left half done. What would stop a write is kept in it, to be thrown by the write.
    /// Folders the last listing recorded are not read again where unchanged (``ListingRecord``).
    public func readPreviousOutput() -> PreviousOutput {
        do throws(OutputError) {
            try recoverInterruptedSwap()
            let manifest = try readPreviousManifest()
            guard FileManager.default.fileExists(atPath: output.path) else { return PreviousOutput(manifest: nil, listing: nil, problem: nil) }
            let listing = try listTrustingRecord()
            let (foreign, intact) = PreviousOutput.survey(listing, manifest: manifest, findingIntact: true)
            return PreviousOutput(manifest: manifest, listing: listing, problem: foreignFilesProblem(foreign), intact: intact)
        } catch {
            return PreviousOutput(manifest: nil, listing: nil, problem: error)
        }
    }

    /// The error of an output folder that holds the files `foreign`, which its manifest does
    /// not list; nil when it holds none.
    private func foreignFilesProblem(_ foreign: [String]) -> OutputError? {
        guard !foreign.isEmpty else { return nil }
        let examples = foreign.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
        let more = foreign.count > 3 ? " and \(foreign.count - 3) more" : ""
        return OutputError(
            path: displayPath,
            message: "the output folder holds files storysite did not write (\(examples)\(more)); "
                + "choose an empty or new folder, or remove them")
    }

    /// Throws when the output folder, every folder of it read again (no record trusted), holds
    /// files that `manifest` (the one read when the build began) does not list: files put there
    /// while the build ran. The listing is only looked through, so it is made without the
    /// ordered copy of its entries a build keeps (``FolderListing/init(root:skipRootDotfiles:jobs:trusting:ordered:)``).
    private func checkNoFilesAdded(since manifest: Manifest?) throws(OutputError) {
        let listing: FolderListing
        do {
            listing = try FolderListing(root: output.path, skipRootDotfiles: true, jobs: jobs, ordered: false)
        } catch {
            throw unlistable(error)
        }
        if let problem = foreignFilesProblem(PreviousOutput.foreignFiles(in: listing, manifest: manifest)) { throw problem }
    }

    /// The output folder's ``FolderFingerprint`` now (skipping root dotfiles), listed as
    /// ``readPreviousOutput()`` lists it; nil when the folder cannot be listed. When the listing
    /// had to read folders again, its record is brought up to date for the next.
    public func currentFingerprint() -> String? {
        guard FileManager.default.fileExists(atPath: output.path), let listing = try? listTrustingRecord() else { return nil }
        saveRecord(of: listing)
        return FolderFingerprint.of(listing)
    }

    /// Replaces the output folder's contents with `files`, plus the files named in `kept`: files
    /// of the previous build, left as they are (see ``PreviousOutput/intactFiles()``).
    public func write(_ files: [OutputFile], keeping kept: Set<String> = []) throws(OutputError) -> Summary {
        try write(files, keeping: kept, over: readPreviousOutput()).summary
    }

    /// Replaces the output folder's contents with `files`, plus the files named in `kept`, given
    /// the folder as ``readPreviousOutput()`` found it at the start of the build. A write of a few
    /// files costs per changed file; a write of many lists the folder again before replacing it,
    /// so no file put there during the build is lost. With `staged`, the staging folder opened
    /// for this write, which holds the files of `files` that are staged already, the whole
    /// folder is replaced; on failure the staging folder is gone. `foldersChecked` says that the
    /// caller found no path of `files` and `kept` below another (``SafePath/folderConflicts(among:)``),
    /// as a build does before it writes, so the write does not look for them again.
    public func write(
        _ files: [OutputFile], keeping kept: Set<String> = [], over previousOutput: PreviousOutput, staged: StagingFolder? = nil,
        foldersChecked: Bool = false
    ) throws(OutputError) -> Written {
        do throws(OutputError) {
            return try write(files, keeping: kept, previousOutput: previousOutput, staged: staged, foldersChecked: foldersChecked)
        } catch {
            staged?.discard()
            throw error
        }
    }

    private func write(
        _ files: [OutputFile], keeping kept: Set<String>, previousOutput: PreviousOutput, staged: StagingFolder?, foldersChecked: Bool
    ) throws(OutputError) -> Written {
        let fileManager = FileManager.default
        try Self.checkPaths(files.map(\.path))
        if let problem = previousOutput.problem { throw problem }
        let found = previousOutput.manifest
        let previous = found ?? Manifest()
        var plan = [(path: String, contents: Data?, entry: Manifest.Entry, unchanged: Bool)]()
        plan.reserveCapacity(files.count + kept.count)
        // A kept file is one the manifest lists (so its path was checked when the manifest was
        // read), found as the manifest records it when the build started (see
        // ``PreviousOutput/intactFiles()``). It is not looked at again: one changed since keeps
        // its manifest entry, so the next build finds it changed and writes it again.
        // In no particular order: sorting ten thousand paths costs more than anything done with them.
        for path in kept {
            guard let old = previous.files[path] else {
                let missing = kept.filter { previous.files[$0] == nil }.min()!
                throw OutputError(path: displayPath, message: "'\(missing)' was to be kept, but the last build did not write it")
            }
            plan.append((path, nil, old, true))
        }
        // Paths that are all the manifest's were checked when it was read: they hold no file
        // that another would need as a folder, and checking again would cost per path.
        if !foldersChecked, found == nil || !files.allSatisfy({ previous.files[$0.path] != nil }) {
            try Self.checkFolders(files.map(\.path) + kept)
        }
        var written = Set<String>()
        written.reserveCapacity(files.count)
        for file in files {
            guard !kept.contains(file.path), written.insert(file.path).inserted else {
                throw OutputError(path: displayPath, message: "two files map to '\(file.path)'")
            }
            let hash = file.hash
            var entry = Manifest.Entry(size: file.size, hash: hash, modified: 0)
            var unchanged = false
            if !file.isStaged, let old = previous.files[file.path], old.hash == hash, old.size == file.size,
               let status = FileStatus(path: output.path + "/" + file.path),
               status.size == old.size, status.modified == old.modified {
                entry.modified = old.modified
                unchanged = true
            }
            plan.append((file.path, file.isStaged ? nil : file.contents, entry, unchanged))
        }
        // The kept files are the manifest's, and none of them is written: when they and the
        // written files the manifest has are all it has, none is gone, and its paths need not be
        // looked up one by one (two lookups each, a tenth of the write of one page of 10,000).
        let writtenOver = written.count { previous.files[$0] != nil }
        let gone = previous.files.count == kept.count + writtenOver
            ? [] : previous.files.keys.filter { !kept.contains($0) && !written.contains($0) }
        let unchangedCount = plan.count(where: \.unchanged)
        let summary = Summary(written: plan.count - unchangedCount, unchanged: unchangedCount, removed: gone.count)
        if staged == nil, summary.written == 0 && summary.removed == 0 && fileManager.fileExists(atPath: output.path) {
            saveRecord(of: previousOutput.listing)
            return Written(summary: summary, fingerprint: previousOutput.fingerprint)
        }
        // A manifest naming a path in another normal form (an earlier version's) needs a full
        // write: its old file would otherwise stay beside the new one.
        if staged == nil, found != nil, summary.written + summary.removed <= Self.inPlaceLimit(forFileCount: plan.count),
           previous.files.keys.allSatisfy(SafePath.isNormalized) {
            let changed = plan.filter { !$0.unchanged }
            let entries = Dictionary(uniqueKeysWithValues: changed.map { ($0.path, $0.entry) })
            let gone = gone.sorted()
            try InPlaceUpdate(output: output, displayPath: displayPath).run(
                changed: changed.map { InPlaceUpdate.Change(path: $0.path, contents: $0.contents ?? Data()) }, removing: gone
            ) { modified, manifestURL in
                var changes: [String: Manifest.Entry?] = [:]
                for path in gone { changes[path] = .some(nil) }
                for (path, time) in modified {
                    var entry = entries[path]!
                    entry.modified = time
                    changes[path] = entry
                }
                try previous.write(changing: changes, to: manifestURL)
            }
            // Files written again where they were, and none removed: the listing made at the start
            // gives the folder's fingerprint with their stamps now, without a copy of it refreshed
            // (a third of the write of one page of 10,000), unless its record is to be saved.
            if gone.isEmpty, let listing = previousOutput.listing, let written = listing.restat(changed.map(\.path)),
               !listing.isWorthRecording(withNewer: Set(changed.map { "/" + Self.folder(of: $0.path) }.filter { $0 != "/" })) {
                return Written(summary: summary, fingerprint: FolderFingerprint.of(listing, replacing: written))
            }
            // The listing made at the start, brought up to date for the files written and removed.
            var listing = previousOutput.listing
            do {
                try listing?.refresh(changed.map(\.path) + gone)
            } catch {
                listing = nil
            }
            saveRecord(of: listing)
            return Written(summary: summary, fingerprint: listing.map(FolderFingerprint.of))
        }

        // Files put into the folder during the build would be lost with the folder it replaces:
        // before it goes, every folder in it is read again, record or not.
        if fileManager.fileExists(atPath: output.path) { try checkNoFilesAdded(since: found) }
        if let failure = staged?.failureMessage {
            throw OutputError(path: displayPath, message: "could not write the new site: \(failure)")
        }
        let staging = staged?.url ?? sibling("staging")
        let retired = sibling("previous")
        if staged == nil {
            // Staging only ever holds storysite's files: a leftover from a killed build can go.
            try? fileManager.removeItem(at: staging)
        }
        var statuses: [(path: String, status: FileStatus, carried: Bool)] = []
        statuses.reserveCapacity(plan.count)
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
            // A file staged already has its folder: only the others need theirs made.
            let unstaged = plan.lazy.filter { staged == nil || $0.contents != nil || $0.unchanged }
            try SiteFileWriter.createFolders(unstaged.map { Self.folder(of: $0.path) }, in: staging.path, jobs: jobs)
            let written = ParallelWork.map(count: plan.count, jobs: jobs) { index -> Result<FileStatus, any Error> in
                let item = plan[index]
                let target = staging.path + "/" + item.path
                return Result {
                    if item.unchanged {
                        try carryOver(output.path + "/" + item.path, to: target)
                        guard let status = FileStatus(path: target) else { throw POSIXFile.failure("stat", target) }
                        return status
                    }
                    guard let contents = item.contents else {
                        // Staged already: its status is the one it was written with.
                        guard let status = staged?.status(of: item.path) else {
                            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "'\(item.path)' is not in the staging folder"])
                        }
                        return status
                    }
                    return try SiteFileWriter.write(contents, to: target)
                }
            }
            var manifest = Manifest()
            for (item, written) in zip(plan, written) {
                let status = try written.get()
                var entry = item.entry
                entry.modified = status.modified
                manifest.files[item.path] = entry
                statuses.append((item.path, status, item.unchanged))
            }
            try fileManager.createDirectory(
                at: staging.appendingPathComponent(Manifest.folderName), withIntermediateDirectories: true)
            try manifest.write(to: staging.appendingPathComponent(Manifest.relativePath))
            if found != nil { carryRecords(into: staging) }
        } catch {
            try? fileManager.removeItem(at: staging)
            throw OutputError(path: displayPath, message: "could not write the new site: \(error.localizedDescription)")
        }
        try swap(in: staging, retiring: retired, writtenBy: found)
        return Written(summary: summary, fingerprint: fingerprint(ofWritten: statuses))
    }

    /// The fingerprint of the output folder just put in place, whose files are `written`, with
    /// what `stat` said of each as it was written: what listing the folder again would give, at
    /// a `readdir` of every folder more. A file carried over from the folder replaced is looked
    /// at again: removing that folder took a link from it. Nil when one cannot be.
    private func fingerprint(ofWritten written: [(path: String, status: FileStatus, carried: Bool)]) -> String? {
        let statuses = ParallelWork.map(count: written.count, jobs: jobs) { index in
            written[index].carried ? FileStatus(path: output.path + "/" + written[index].path) : written[index].status
        }
        var files: [(path: String, stamp: FileStamp)] = []
        files.reserveCapacity(written.count)
        for (file, status) in zip(written, statuses) {
            guard let status else { return nil }
            files.append((file.path, status.stamp))
        }
        return FolderFingerprint.of(files: files, skipRootDotfiles: true)
    }

    /// Puts new versions of a few files the last write left in place, each written beside it
    /// and renamed over it, so that a reader finds the old file or the new one, never part of
    /// one. The manifest is left as it is: the next write finds these files changed since it
    /// and writes them again, so it needs no trust in them. For `serve`, which knows exactly
    /// which pages of its last build a save changed; the caller holds the ``OutputLock``.
    /// Throws when a file is not there to be replaced, or cannot be; the files before it are
    /// replaced, it and those after it are as they were.
    public func replace(_ files: [OutputFile]) throws(OutputError) {
        try Self.checkPaths(files.map(\.path))
        let temporary = output.path + "/" + Manifest.folderName + "/tmp"
        defer { rmdir(temporary) }
        for (index, file) in files.enumerated() {
            let target = output.path + "/" + file.path
            guard FileStatus(path: target) != nil else {
                throw OutputError(path: displayPath, message: "'\(file.path)' is not a file there to be replaced")
            }
            let written = temporary + "/replacement-\(index)"
            do {
                try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
                _ = try SiteFileWriter.write(file.contents, to: written)
                guard rename(written, target) == 0 else { throw POSIXFile.failure("rename", target) }
            } catch {
                unlink(written)
                throw OutputError(path: displayPath, message: "could not update '\(file.path)': \(error.localizedDescription)")
            }
        }
    }

    // MARK: Steps

    /// Throws unless every path follows the ``SafePath`` rule.
    private static func checkPaths(_ paths: [String]) throws(OutputError) {
        for path in paths {
            if let problem = SafePath.problem(in: path) {
                throw OutputError(path: path, message: "storysite will not write this path: \(problem)")
            }
        }
    }

    /// Throws when one of `paths` lies below another (a file cannot also be a folder).
    private static func checkFolders(_ paths: [String]) throws(OutputError) {
        if let conflict = SafePath.folderConflicts(among: paths).first {
            throw OutputError(
                path: conflict.below, message: "cannot be written: '\(conflict.file)' is a file of the site, so it cannot also be a folder")
        }
    }

    /// The manifest of the current output; nil when there is none.
    private func readPreviousManifest() throws(OutputError) -> Manifest? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output.path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else {
            throw OutputError(path: displayPath, message: "the output path is a file, not a folder")
        }
        do {
            return try Manifest.read(in: output)
        } catch {
            throw OutputError(
                path: displayPath,
                message: "\(Manifest.relativePath) is unreadable (\(error.reason)), so storysite cannot tell the files it wrote from yours; "
                    + "if the folder holds only a build, remove it and build again")
        }
    }

    /// Every entry below the output folder, except root dotfiles, trusting the record of the last
    /// listing (``ListingRecord``). A folder that cannot be listed stops the write: it may hold
    /// files of the user's.
    private func listTrustingRecord() throws(OutputError) -> FolderListing {
        do {
            return try FolderListing(root: output.path, skipRootDotfiles: true, jobs: jobs, trusting: ListingRecord.read(in: output))
        } catch {
            throw unlistable(error)
        }
    }

    /// The error of an output folder that could not be listed.
    private func unlistable(_ error: FolderListing.Unlistable) -> OutputError {
        OutputError(
            path: displayPath,
            message: "could not list '\(error.folder.isEmpty ? "." : String(error.folder.dropFirst()))' (\(error.reason)), "
                + "so storysite cannot tell whether it holds files of yours; make it readable or remove it")
    }

    /// Saves the record of `listing` for the next listing (``ListingRecord``), unless it would
    /// spare it too little (``FolderListing/isWorthRecording``).
    private func saveRecord(of listing: FolderListing?) {
        guard let listing, listing.isWorthRecording else { return }
        ListingRecord(listing).write(in: output)
    }

    /// Links the files the last build kept in the output folder's `.storysite/` beside its
    /// manifest (the build cache, the kept content) into the staging folder's, unless it has its
    /// own already; not the listing record, whose folders are replaced. A build writes again only
    /// the records that changed, so one that replaces the folder would lose the others with it,
    /// and the next build would read and crawl every story again. They only save time: one that
    /// cannot be carried is left out.
    private func carryRecords(into staging: URL) {
        let kept = output.path + "/" + Manifest.folderName, replacing = staging.path + "/" + Manifest.folderName
        for name in (try? FileManager.default.contentsOfDirectory(atPath: kept)) ?? []
        where Manifest.folderName + "/" + name != ListingRecord.relativePath {
            let source = kept + "/" + name, target = replacing + "/" + name
            guard FileStatus(path: source) != nil, !FileManager.default.fileExists(atPath: target) else { continue }
            try? carryOver(source, to: target)
        }
    }

    /// Links an unchanged file into the staging folder, or copies it keeping its modification time
    /// where hard links are not possible.
    private func carryOver(_ source: String, to target: String) throws {
        if link(source, target) == 0 { return }
        try FileManager.default.copyItem(atPath: source, toPath: target)
    }

    /// The folder a file's relative path is in: `blog/post` for `blog/post/index.html`, `""` for
    /// a file at the top.
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Puts staging in the output folder's place, then moves the user's root dotfiles across from
    /// the retired folder, whose files `manifest` lists. Staging never holds a file of the
    /// user's, so an interrupted build can always discard it; the retired folder can, and the
    /// next write recovers it first (``recoverInterruptedSwap()``).
    private func swap(in staging: URL, retiring retired: URL, writtenBy manifest: Manifest?) throws(OutputError) {
        let fileManager = FileManager.default
        let hadOutput = fileManager.fileExists(atPath: output.path)
        do {
            if hadOutput {
                try fileManager.moveItem(at: output, to: retired)
            } else {
                try fileManager.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            do {
                try fileManager.moveItem(at: staging, to: output)
            } catch {
                if hadOutput { try? fileManager.moveItem(at: retired, to: output) }
                throw error
            }
        } catch {
            try? fileManager.removeItem(at: staging)
            throw OutputError(path: displayPath, message: "could not replace the output folder: \(error.localizedDescription)")
        }
        guard hadOutput else { return }
        try carryUserDotfiles(from: retired, writtenBy: manifest)
        FolderRemoval.remove(retired.path, jobs: jobs)
    }

    /// Finishes a swap that a killed build left half done, before anything else is touched: the
    /// previous output is put back if the new one never took its place, and the user's dotfiles
    /// are moved into the output folder if they were left behind.
    private func recoverInterruptedSwap() throws(OutputError) {
        let fileManager = FileManager.default
        let retired = sibling("previous")
        guard fileManager.fileExists(atPath: retired.path) else { return }
        if !fileManager.fileExists(atPath: output.path) {
            do {
                try fileManager.moveItem(at: retired, to: output)
            } catch {
                throw OutputError(
                    path: displayPath,
                    message: "an interrupted build left the previous site in '\(retired.path)' and it could not be put back: \(error.localizedDescription)")
            }
            return
        }
        try carryUserDotfiles(from: retired, writtenBy: (try? Manifest.read(in: retired)) ?? nil)
        FolderRemoval.remove(retired.path, jobs: jobs)
    }

    /// Moves the user's root dotfiles (`.git`, `.nojekyll`; not storysite's own `.storysite`, nor
    /// those `manifest`, `folder`'s, lists, such as a static `.well-known/`) from `folder` into the
    /// output folder. On failure `folder` is kept, and named, so nothing of the user's is lost.
    private func carryUserDotfiles(from folder: URL, writtenBy manifest: Manifest?) throws(OutputError) {
        let fileManager = FileManager.default
        let written = Set(manifest?.files.keys.filter { $0.hasPrefix(".") }.map { String($0.prefix { $0 != "/" }) } ?? [])
        let names = ((try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix(".") && $0 != Manifest.folderName && !written.contains($0) }
        for name in names.sorted() where !fileManager.fileExists(atPath: output.appendingPathComponent(name).path) {
            do {
                try fileManager.moveItem(at: folder.appendingPathComponent(name), to: output.appendingPathComponent(name))
            } catch {
                throw OutputError(
                    path: displayPath,
                    message: "could not move '\(name)' back into the output folder; it is in '\(folder.path)': \(error.localizedDescription)")
            }
        }
    }

    /// A hidden working folder next to the output folder, on the same file system.
    private func sibling(_ role: String) -> URL {
        output.storysiteSibling(role)
    }
}

extension URL {
    /// The hidden file or folder storysite keeps beside this output folder for `role`
    /// (`.Output.storysite-staging`), on the same file system.
    public func storysiteSibling(_ role: String) -> URL {
        deletingLastPathComponent().appendingPathComponent(".\(lastPathComponent).storysite-\(role)")
    }
}
