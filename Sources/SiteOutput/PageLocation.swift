import StoryModel

/// Where a story's page lives: its site-relative URL and the file that serves it.
///
/// Pretty URLs: the home story is `index.html` at the root, `blog/post` is `blog/post/index.html`
/// (URL `blog/post/`), and a folder start page `blog/` is `blog/index.html` (URL `blog/`).
public struct PageLocation: Sendable, Hashable, Comparable {
    /// The site-relative URL with a trailing slash; empty for the home page.
    public var url: String
    /// The path of the HTML file relative to the output folder.
    public var filePath: String

    /// The location of a story's page, or an error when its slug could escape the output folder.
    ///
    /// - Parameters:
    ///   - fullSlug: the story's `full_slug` (without a leading `/`).
    ///   - isHome: whether the story is the site's home page, which maps to the root.
    public init(fullSlug: String, isHome: Bool) throws(UnsafeSlugError) {
        if isHome {
            url = ""
            filePath = "index.html"
            return
        }
        let slug = SafePath.normalized(fullSlug)
        let folder = slug.utf8.last == UInt8(ascii: "/") ? String(slug.dropLast()) : slug
        // Made at their length at once: a plan makes them for every story on every build.
        url = String(concatenating: folder, "/")
        filePath = String(concatenating: folder, "/index.html")
        try Self.validate(slug, filePath: filePath)
    }

    /// The location of a page storysite makes itself (`blog/page/2/`, `tags/swift/`), whose URL
    /// is built from safe parts: a folder URL ending in `/`.
    public init(generatedURL url: String) {
        self.url = SafePath.normalized(url)
        filePath = self.url + "index.html"
    }

    public static func < (lhs: PageLocation, rhs: PageLocation) -> Bool {
        lhs.filePath < rhs.filePath
    }

    /// Top-level names of files storysite writes next to the pages.
    private static let reservedNames = ["404.html", "sitemap.xml", "robots.txt"]

    /// Rejects slugs whose page path breaks the ``SafePath`` rule, and those that would clash
    /// with the user's dotfiles or the files storysite writes itself: a segment starting with a
    /// dot, a first segment naming one of storysite's files, or a segment `index.html` (the file
    /// of the page one folder up).
    private static func validate(_ slug: String, filePath: String) throws(UnsafeSlugError) {
        if slug.isEmpty || slug == "/" { throw UnsafeSlugError(slug: slug, reason: "it is empty") }
        if let reason = filePath.withUTF8Bytes(folderProblem(in:)) { throw UnsafeSlugError(slug: slug, reason: reason) }
        if let problem = SafePath.problem(in: filePath) { throw UnsafeSlugError(slug: slug, reason: problem) }
    }

    /// What is wrong with the folders of the page path `path` (the non-empty segments before a
    /// `/`), as the end of a sentence; nil when nothing is. Found among its UTF-8 bytes: a
    /// plan of 10,000 pages spent a twentieth of a one-page rebuild's instructions slicing it
    /// as text. The path is in NFC, where equal text is equal bytes.
    private static func folderProblem(in path: UnsafeBufferPointer<UInt8>) -> String? {
        let dot = UInt8(ascii: ".")
        var first: Slice<UnsafeBufferPointer<UInt8>>?
        var start = 0
        for (end, byte) in path.enumerated() where byte == UInt8(ascii: "/") {
            let segment = path[start..<end]
            start = end + 1
            guard !segment.isEmpty else { continue }
            if first == nil { first = segment }
            guard !(segment.count <= 2 && segment.allSatisfy { $0 == dot }) else { continue }
            if segment.first == dot {
                return "'\(String(decoding: segment, as: UTF8.self))' starts with a dot (hidden files belong to the user, and hosts do not serve them)"
            }
            if segment.count == 10, segment.elementsEqual("index.html".utf8) {
                return "'index.html' is the file of every page, so it cannot also be a folder of one"
            }
        }
        if let first, let name = reservedNames.first(where: { first.count == $0.utf8.count && first.elementsEqual($0.utf8) }) {
            return "'\(name)' is a file storysite writes itself"
        }
        return nil
    }
}

/// A slug that cannot be turned into a page path safely.
public struct UnsafeSlugError: Error, Sendable, Equatable, CustomStringConvertible {
    public var slug: String
    public var reason: String

    public var description: String {
        "slug '\(slug.debugDescriptionWithoutQuotes)' cannot be a page path: \(reason)"
    }
}

extension String {
    /// The string with control characters escaped, for messages.
    fileprivate var debugDescriptionWithoutQuotes: String {
        String(debugDescription.dropFirst().dropLast())
    }
}
