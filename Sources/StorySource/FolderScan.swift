import Foundation

/// The JSON files of a content folder, at any depth, as paths relative to the folder in sorted
/// (byte) order so that loading is deterministic. Hidden files and folders (`.git`) are skipped.
enum FolderScan {
    static func jsonFiles(in folder: URL) throws -> [String] {
        let root = folder.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".") {
                if enumerator.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { enumerator.skipDescendants() }
                continue
            }
            if name.lowercased().hasSuffix(".json") { files.append(path) }
        }
        return files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
