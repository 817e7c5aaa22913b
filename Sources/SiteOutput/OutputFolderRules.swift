import Foundation

/// Folders storysite must never use as its output: replacing them would destroy the user's work.
public enum OutputFolderRules {
    /// Throws when `output` is the current folder, or is, contains or lies inside one of
    /// `protected` (the content source and the templates folder), named for the message.
    public static func check(
        output: URL, displayPath: String, currentFolder: URL, protected: [(name: String, url: URL)]
    ) throws(OutputError) {
        let outputPath = canonicalPath(output)
        let currentPath = canonicalPath(currentFolder)
        if outputPath == currentPath || isAncestor(outputPath, of: currentPath) {
            throw OutputError(path: displayPath, message: "the output folder cannot be the current folder or contain it")
        }
        for (name, url) in protected {
            let path = canonicalPath(url)
            if outputPath == path || isAncestor(outputPath, of: path) || isAncestor(path, of: outputPath) {
                throw OutputError(
                    path: displayPath,
                    message: "the output folder cannot be, contain or lie inside the \(name) folder '\(url.relativePath)'")
            }
        }
    }

    private static func canonicalPath(_ url: URL) -> String {
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    private static func isAncestor(_ ancestor: String, of path: String) -> Bool {
        let prefix = ancestor == "/" ? "/" : ancestor + "/"
        return path.hasPrefix(prefix)
    }
}
