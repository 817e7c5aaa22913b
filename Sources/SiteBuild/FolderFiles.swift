import Foundation
import SiteOutput

/// Every regular file below a folder, as output files named by their path relative to it.
enum FolderFiles {
    /// The files below `folder` in path order, each relative to it, and an error (at
    /// `displayPath/…`) for each that cannot be read, and for each sub-folder that cannot be
    /// listed (the site would otherwise lose its files without a word). A missing folder has no files.
    static func read(_ folder: URL, as prefix: String = "", displayPath: String) -> (files: [OutputFile], diagnostics: [Diagnostic]) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { return ([], []) }
        var files: [OutputFile] = []
        var diagnostics: [Diagnostic] = []
        let root = folder.standardizedFileURL.path + "/"
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) { url, error in
            let relative = String(url.standardizedFileURL.path.dropFirst(root.count))
            diagnostics.append(.error("\(displayPath)/\(relative)", "folder cannot be listed (\(error.localizedDescription)); make it readable or remove it"))
            return true
        }
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.count))
            do {
                files.append(OutputFile(path: prefix + relative, contents: try Data(contentsOf: url)))
            } catch {
                diagnostics.append(.error("\(displayPath)/\(relative)", "could not read the file: \(error.localizedDescription)"))
            }
        }
        return (files.sorted { $0.path < $1.path }, diagnostics)
    }
}
