import Foundation
import StoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Changes a few files of an output folder in place, all or nothing: the new files are written
/// under `.storysite/tmp/` first; then each old file is kept there as a hard link before the new
/// one is renamed over it, and each file that is gone is moved there; then the manifest is
/// replaced atomically. When a step fails, every step done is undone in reverse, so the folder is
/// byte-identical to before, or the error lists exactly the paths that could not be put back.
struct InPlaceUpdate {
    /// One file to write: its path relative to the output folder and its bytes.
    struct Change {
        var path: String
        var contents: Data
    }

    /// A step done, and how to undo it.
    private enum Step {
        /// A folder made for a new file.
        case madeFolder(String)
        /// A file put in place, the old one (if any) kept at `backup`.
        case replaced(path: String, backup: String?)
        /// A file that is gone, moved to `backup`.
        case removed(path: String, backup: String)
    }

    let output: URL
    let displayPath: String

    private var temporary: String { output.path + "/" + Manifest.folderName + "/tmp" }

    /// Writes `changed`, removes `removed`, then has `writeManifest` write the manifest (given
    /// each new file's modification time, and where the manifest goes). Empty folders left by
    /// removed files are removed too.
    func run(
        changed: [Change], removing removed: [String], manifest writeManifest: ([String: Int64], URL) throws -> Void
    ) throws(OutputError) {
        FolderRemoval.remove(temporary, jobs: 1)
        do {
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
            for (index, file) in changed.enumerated() {
                _ = try SiteFileWriter.write(file.contents, to: temporary + "/new-\(index)")
            }
        } catch {
            FolderRemoval.remove(temporary, jobs: 1)
            throw OutputError(path: displayPath, message: "could not write the new site: \(error.localizedDescription)")
        }
        var steps: [Step] = []
        var modified: [String: Int64] = [:]
        do {
            for (index, file) in changed.enumerated() {
                let target = output.path + "/" + file.path
                for folder in try makeFolders(containing: file.path) { steps.append(.madeFolder(folder)) }
                let backup = try keep(target, as: temporary + "/old-\(index)")
                guard rename(temporary + "/new-\(index)", target) == 0 else {
                    let failure = POSIXFile.failure("rename", target)
                    if let backup { unlink(backup) }
                    throw failure
                }
                steps.append(.replaced(path: file.path, backup: backup))
                modified[file.path] = FileStatus(path: target)?.modified ?? 0
            }
            for (index, path) in removed.enumerated() {
                let backup = temporary + "/gone-\(index)"
                if rename(output.path + "/" + path, backup) == 0 {
                    steps.append(.removed(path: path, backup: backup))
                } else if errno != ENOENT {
                    throw POSIXFile.failure("rename", output.path + "/" + path)
                }
            }
            try writeManifest(modified, output.appendingPathComponent(Manifest.relativePath))
        } catch {
            let notRestored = undo(steps)
            FolderRemoval.remove(temporary, jobs: 1)
            let state = notRestored.isEmpty
                ? "the folder is as it was"
                : "these files could not be put back as they were: " + notRestored.map { "'\($0)'" }.joined(separator: ", ")
            throw OutputError(path: displayPath, message: "could not update the site: \(error.localizedDescription); \(state)")
        }
        for path in removed { removeEmptyFolders(above: path) }
        FolderRemoval.remove(temporary, jobs: 1)
    }

    /// Keeps the file at `path` as `backup` (a hard link, or a copy where links are not
    /// possible); nil when there is no file at `path`.
    private func keep(_ path: String, as backup: String) throws -> String? {
        if link(path, backup) == 0 { return backup }
        if errno == ENOENT { return nil }
        try FileManager.default.copyItem(atPath: path, toPath: backup)
        return backup
    }

    /// Makes the folders of `path` that do not exist, parents first; returns them in that order.
    private func makeFolders(containing path: String) throws -> [String] {
        var missing: [String] = []
        var folder = URL(fileURLWithPath: output.path + "/" + path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        while folder.count > output.path.count, !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            missing.append(folder)
            folder = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        }
        var made: [String] = []
        for folder in missing.reversed() {
            guard mkdir(folder, 0o755) == 0 else {
                let failure = POSIXFile.failure("mkdir", folder)
                for made in made.reversed() { rmdir(made) }
                throw failure
            }
            made.append(folder)
        }
        return made
    }

    /// Undoes `steps` in reverse; returns the paths (relative to the output folder) that could
    /// not be put back.
    private func undo(_ steps: [Step]) -> [String] {
        var notRestored: [String] = []
        for step in steps.reversed() {
            switch step {
            case .madeFolder(let folder):
                rmdir(folder)
            case .replaced(let path, let backup?):
                if rename(backup, output.path + "/" + path) != 0 { notRestored.append(path) }
            case .replaced(let path, nil):
                if unlink(output.path + "/" + path) != 0 { notRestored.append(path) }
            case .removed(let path, let backup):
                if rename(backup, output.path + "/" + path) != 0 { notRestored.append(path) }
            }
        }
        return notRestored.sorted()
    }

    /// Removes the folders of `path` that are empty now, deepest first, up to the output folder.
    private func removeEmptyFolders(above path: String) {
        var folder = URL(fileURLWithPath: output.path + "/" + path).deletingLastPathComponent()
        while folder.path.count > output.path.count, rmdir(folder.path) == 0 { folder = folder.deletingLastPathComponent() }
    }
}
