import Foundation
import SiteOutput

/// Every regular file below a folder, as output files named by their path relative to it.
enum FolderFiles {
    /// The files below `folder` in path order, each relative to it, and an error (at
    /// `displayPath/…`) for each that cannot be read. A missing folder has no files.
    static func read(_ folder: URL, as prefix: String = "", displayPath: String) -> (files: [OutputFile], diagnostics: [Diagnostic]) {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return ([], [])
        }
        var files: [OutputFile] = []
        var diagnostics: [Diagnostic] = []
        let root = folder.standardizedFileURL.path + "/"
        for case let url as URL in enumerator {
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
