import Foundation
import SiteOutput

/// The root files of a site (`static/` beside `Templates/`): `CNAME`, `_redirects`, `_headers`,
/// `favicon.ico`, `.well-known/`… copied to the output root as they are. A `robots.txt` among
/// them replaces the generated one; any other file the build also generates is an error naming
/// both, since one of them would silently win.
enum StaticFiles {
    /// The one generated file a static file may replace.
    static let replaceable: Set<String> = ["robots.txt"]
    /// The output's folder of storysite's own (the manifest, the build cache).
    private static let reservedFolder = String(BuildCache.relativePath.prefix { $0 != "/" })

    /// `files`, the generated files, with the static files of `folder` (shown as `displayPath`)
    /// added; `kept` are the generated pages of the previous build kept as they are, and `plans`
    /// name the pages in messages.
    static func merge(
        _ files: [OutputFile], kept: Set<String>, plans: [PagePlan], from folder: URL, displayPath: String, templates: String
    ) -> (files: [OutputFile], diagnostics: [Diagnostic]) {
        var (statics, diagnostics) = FolderFiles.read(folder, displayPath: displayPath)
        guard !statics.isEmpty else { return (files, diagnostics) }
        let replaced = Set(statics.map(\.path)).intersection(replaceable)
        let generated = Set(files.map(\.path)).union(kept)
        let generatedFolders = Set(generated.flatMap { path in path.indices.filter { path[$0] == "/" }.map { String(path[..<$0]) } })
        statics = statics.filter { file in
            if file.path.hasPrefix(reservedFolder + "/") {
                diagnostics.append(.error(
                    "\(displayPath)/\(file.path)", "storysite keeps its build cache in '\(reservedFolder)/'; move the file elsewhere"))
                return false
            }
            if generatedFolders.contains(file.path) {
                diagnostics.append(.error(
                    "\(displayPath)/\(file.path)", "the build writes files into the folder '\(file.path)/'; rename or remove the file"))
                return false
            }
            guard generated.contains(file.path), !replaced.contains(file.path) else { return true }
            diagnostics.append(.error(
                "\(displayPath)/\(file.path)",
                "the build also writes '\(file.path)', \(origin(of: file.path, plans: plans, templates: templates)); rename or remove one of them"))
            return false
        }
        return (files.filter { !replaced.contains($0.path) } + statics, diagnostics)
    }

    /// What generates `path`, for the collision message: a page, an asset of the theme, or a
    /// file of storysite's own (404 page, sitemap, feed).
    private static func origin(of path: String, plans: [PagePlan], templates: String) -> String {
        for plan in plans {
            if let page = plan.pages.first(where: { $0.location.filePath == path }) {
                return "the page of " + page.kind.description + (plan.language.map { " (\($0.code))" } ?? "")
            }
        }
        if path.hasPrefix("assets/") { return "from \(templates)/\(path)" }
        return "a file storysite generates"
    }
}
