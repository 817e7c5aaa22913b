/// Relative-URL arithmetic between pages of one site, so that internal links work under any
/// sub-path and in preview without configuration.
///
/// Page URLs are site-relative without a leading slash: `""` is the home page, `"blog/post/"` a
/// page (a folder with an `index.html`), `"assets/x.svg"` a file.
public enum RelativeURL {
    /// The href from the page at `page` to the site-relative `target` (which may end in
    /// `#fragment` or `?query`): `from "blog/post/"` to `"about/"` is `"../../about/"`, to
    /// `"blog/post/#intro"` is `"#intro"`, and a link to the page itself is `"./"`.
    public static func href(from page: String, to target: String) -> String {
        let (targetPath, suffix) = splitSuffix(target)
        let fromFolders = folders(of: page)
        var targetParts = targetPath.split(separator: "/", omittingEmptySubsequences: false)
        if targetParts.first == "" { targetParts.removeFirst() }  // tolerate a leading slash
        let targetFile = targetParts.popLast() ?? ""
        let targetFolders = targetParts.filter { !$0.isEmpty }

        var common = 0
        while common < fromFolders.count, common < targetFolders.count, fromFolders[common] == targetFolders[common] {
            common += 1
        }
        var href = String(repeating: "../", count: fromFolders.count - common)
        for folder in targetFolders[common...] {
            href += folder
            href += "/"
        }
        href += targetFile
        if href.isEmpty {
            // The target is the folder this page lives in: for a folder page, the page itself.
            if isFolderPage(page), suffix.hasPrefix("#") { return suffix }
            href = "./"
        }
        return href + suffix
    }

    /// The prefix from the page at `page` to the site root: `"./"` for home, `"../../"` for
    /// `"blog/post/"`. Templates put it before asset paths.
    public static func root(of page: String) -> String {
        let depth = folders(of: page).count
        return depth == 0 ? "./" : String(repeating: "../", count: depth)
    }

    /// A site-root path (`/assets/x.svg`) made relative to the page at `page`; any other URL
    /// (absolute, protocol-relative, already relative, a fragment) is returned as it is.
    public static func resolvingSiteRoot(_ url: String, from page: String) -> String {
        guard url.hasPrefix("/"), !url.hasPrefix("//") else { return url }
        return href(from: page, to: String(url.dropFirst()))
    }

    /// The folder names a page lives in: `"blog/post/"` → `["blog", "post"]`,
    /// `"blog/list.html"` → `["blog"]`, `""` → `[]`.
    private static func folders(of page: String) -> [Substring] {
        var parts = page.split(separator: "/", omittingEmptySubsequences: false)
        _ = parts.popLast()  // the file name, or "" after a trailing slash
        return parts.filter { !$0.isEmpty }
    }

    private static func isFolderPage(_ page: String) -> Bool {
        page.isEmpty || page.hasSuffix("/")
    }

    private static func splitSuffix(_ url: String) -> (path: String, suffix: String) {
        guard let index = url.firstIndex(where: { $0 == "#" || $0 == "?" }) else { return (url, "") }
        return (String(url[..<index]), String(url[index...]))
    }
}
