/// Where a story sits in the content tree's folders, as listings see it.
///
/// A folder is named by its path with a trailing slash (`blog/`, `docs/guides/`); the space's
/// root folder is `""`. A folder's start page is the story whose `full_slug` is the folder
/// (`blog/`), a story marked `is_startpage` inside it (`blog/index`), or a story marked
/// `is_folder` whose slug names it (`blog-index` for `blog-index/`, as some exports write it).
/// A folder lists the stories directly in it and the start pages of its direct sub-folders.
extension Story {
    /// ``startPageFolder``, made once per story from its slug and its `fields`.
    static func startPageFolder(of fullSlug: String, fields: StoryFields) -> String? {
        if fullSlug.utf8.last == UInt8(ascii: "/") { return fullSlug }
        if fields.isStartpage?.boolValue == true { return folder(of: fullSlug) }
        if fields.isFolder?.boolValue == true { return fullSlug + "/" }
        return nil
    }

    /// The folder that lists this story: for a start page, the folder above its own; for any
    /// other story, the folder its slug is in. `""` for the root folder.
    public var listingFolder: String {
        Self.listingFolder(ofSlug: fullSlug, startPageFolder: startPageFolder)
    }

    /// ``listingFolder`` of a story with the `full_slug` `fullSlug`, the start page of
    /// `startPageFolder` (nil for none).
    public static func listingFolder(ofSlug fullSlug: String, startPageFolder: String?) -> String {
        if let own = startPageFolder { return folder(of: String(own.dropLast())) }
        return folder(of: fullSlug)
    }

    /// The folder holding the slug `path` (no trailing slash): `blog/` for `blog/post`, `""`
    /// for `about`.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }
}
