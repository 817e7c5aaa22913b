import StoryModel

/// The URL slug of a tag name, for tag pages at `tags/<slug>/`.
public enum TagSlug {
    /// The longest slug, in UTF-8 bytes: well within file-name limits (255 bytes on most file systems).
    private static let maximumLength = 100

    /// The slug of `tag` (``TextSlug``), at most 100 UTF-8 bytes; nil when no letter or digit is
    /// left (an empty tag, or only punctuation), so the caller can report the tag. Tags that
    /// differ only in case or punctuation (`Swift`, `swift`, `Swift!`) get the same slug.
    public static func slug(for tag: String) -> String? {
        TextSlug.slug(of: tag, maximumBytes: maximumLength)
    }
}
