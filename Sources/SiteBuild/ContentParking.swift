import SiteOutput
import StorySource

extension SiteGenerator {
    /// How many bytes of story files a build keeps the content of in memory: above that, each
    /// story's content waits in a file (``StoryModel/TapeStore``) between the crawl that reads
    /// it and the page that shows it, and is read back for each. At 100,000 stories (650 MB of
    /// files) the content held at once was over half of a build's memory.
    static let contentKeptInMemory = 256 << 20

    /// Whether a build parks the content of the content folder `listed` (in ``contentStore``):
    /// whether its story files hold more than `threshold` bytes (never, without one).
    static func parksContent(of listed: ListedFolder?, above threshold: Int?) -> Bool {
        guard let threshold, let listed, let bytes = LocalFolderSource.storyFileBytes(listed: listed.entries) else { return false }
        return bytes > threshold
    }
}
