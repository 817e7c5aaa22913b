/// The files of a checked folder as a static host serves them (nginx, GitHub Pages, Netlify):
/// a folder's page is its `index.html`, `dir` redirects to `dir/`, folders are never listed,
/// names match byte for byte and case for case, and no extension is guessed.
struct SiteIndex: Sendable {
    /// What a host answers for a resolved path.
    enum Lookup: Equatable {
        /// The file served: the path itself, or the folder's `index.html`.
        case file(ByteString)
        /// Nothing is served.
        case missing(Missing)
        /// Nothing is served for `page`, but `page.html` exists: hosts that guess extensions serve it.
        case onlyWithExtension(ByteString)
    }

    /// Why a path serves nothing.
    enum Missing: Equatable {
        case noSuchPath(ByteString)
        case folderWithoutIndex(ByteString)
        case fileIsNotAFolder(ByteString)
    }

    /// Every file, by its path from the site root.
    private let files: Set<ByteString>
    /// Every folder, by its path from the site root without a trailing `/` (the root is empty).
    private let folders: Set<ByteString>
    /// The HTML pages that are parsed (their anchors can be checked), numbered in check order.
    let pageNumbers: [ByteString: Int]

    private static let indexFile = Array("index.html".utf8)
    private static let htmlExtension = Array(".html".utf8)

    /// Indexes `files` (paths from the root, `/`-separated); the folders are those that hold them
    /// plus `emptyFolders`; `pages` are the files whose anchors are known.
    init(files: Set<ByteString>, emptyFolders: Set<ByteString> = [], pages: [ByteString]) {
        var folders = emptyFolders
        folders.insert(ByteString([]))
        for file in files {
            var path = file.bytes
            while let slash = path.lastIndex(of: UInt8(ascii: "/")) {
                path.removeSubrange(slash...)
                if !folders.insert(ByteString(path)).inserted { break }
            }
        }
        self.files = files
        self.folders = folders
        pageNumbers = Dictionary(pages.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    func lookup(_ path: SitePath) -> Lookup {
        if path.isFolder {
            let index = ByteString(path.bytes + Self.indexFile)
            if files.contains(index) { return .file(index) }
            let folder = ByteString(Array(path.bytes.dropLast()))
            if !path.bytes.isEmpty, files.contains(folder) { return .missing(.fileIsNotAFolder(folder)) }
            if folders.contains(folder) { return .missing(.folderWithoutIndex(ByteString(path.bytes))) }
            return .missing(.noSuchPath(ByteString(path.bytes)))
        }
        let file = ByteString(path.bytes)
        if files.contains(file) { return .file(file) }
        if folders.contains(file) {
            let index = ByteString(path.bytes + [UInt8(ascii: "/")] + Self.indexFile)
            return files.contains(index) ? .file(index) : .missing(.folderWithoutIndex(ByteString(path.bytes + [UInt8(ascii: "/")])))
        }
        let withExtension = ByteString(path.bytes + Self.htmlExtension)
        if files.contains(withExtension) { return .onlyWithExtension(withExtension) }
        return .missing(.noSuchPath(file))
    }

    /// Whether `path` names a page whose anchors link checking knows.
    static func isPageName(_ path: ByteString) -> Bool {
        let name = path.bytes.lazy.map { $0 | 0x20 }
        return name.reversed().starts(with: ".html".utf8.reversed()) || name.reversed().starts(with: ".htm".utf8.reversed())
    }
}
