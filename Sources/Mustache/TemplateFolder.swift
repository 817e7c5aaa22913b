import Foundation

extension TemplateLibrary {
    /// Compiles every `*.mustache` file under `folder`, in any sub-folder (hidden ones skipped).
    ///
    /// A template's name is its path relative to `folder` without `.mustache`
    /// (`components/teaser`). Throws ``TemplateErrors`` listing every problem in every file,
    /// with paths shown as `folder.relativePath` + `/` + the file's relative path. A sub-folder
    /// that cannot be listed is one of those problems.
    public init(folder: URL) throws {
        var root = folder.relativePath
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        let fileManager = FileManager.default
        var isFolder: ObjCBool = false
        guard fileManager.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw TemplateErrors(errors: [
                TemplateError(path: root, line: 0, column: 0, message: "template folder not found")
            ])
        }
        let fileExtension = ".mustache"
        var sources: [TemplateSource] = []
        var errors: [TemplateError] = []
        let prefix = folder.standardizedFileURL.path + "/"
        func relative(_ url: URL) -> String { String(url.standardizedFileURL.path.dropFirst(prefix.count)) }
        // A folder that cannot be listed fails the build: its templates would silently render as nothing.
        let enumerator = fileManager.enumerator(at: folder, includingPropertiesForKeys: nil) { url, error in
            errors.append(TemplateError(
                path: root + "/" + relative(url), line: 0, column: 0,
                message: "folder cannot be listed (\(error.localizedDescription)); make it readable or remove it"))
            return true
        }
        while let url = enumerator?.nextObject() as? URL {
            let relativePath = relative(url)
            guard relativePath.hasSuffix(fileExtension),
                !relativePath.split(separator: "/").contains(where: { $0.hasPrefix(".") })
            else { continue }
            var isSubfolder: ObjCBool = false
            guard fileManager.fileExists(atPath: url.path, isDirectory: &isSubfolder), !isSubfolder.boolValue
            else { continue }
            let path = root + "/" + relativePath
            guard let data = fileManager.contents(atPath: url.path) else {
                errors.append(TemplateError(path: path, line: 0, column: 0, message: "file cannot be read"))
                continue
            }
            guard let text = String(bytes: data, encoding: .utf8) else {
                errors.append(TemplateError(path: path, line: 0, column: 0, message: "file is not valid UTF-8 text"))
                continue
            }
            let name = String(relativePath.dropLast(fileExtension.count))
            sources.append(TemplateSource(name: name, path: path, text: text))
        }
        try self.init(sources: sources, earlierErrors: errors)
    }
}
