import Foundation
import StoryCrawl
import StorySource
import TestSupport

/// A small content space written to a temporary folder and crawled from `home`, as the CLI does
/// before checking.
enum StorySpace {
    /// A story object with the required keys and a root block holding `fields`.
    static func story(_ uuid: String, _ fullSlug: String, _ fields: [String: Any] = [:]) -> [String: Any] {
        var content: [String: Any] = ["_uid": "root-\(uuid)", "component": "page"]
        content.merge(fields) { _, new in new }
        return ["uuid": uuid, "full_slug": fullSlug, "name": fullSlug, "content": content]
    }

    /// A story multilink to `uuid`, saved with `cachedURL`.
    static func storyLink(_ uuid: String, cachedURL: String, anchor: String? = nil) -> [String: Any] {
        var link: [String: Any] = ["fieldtype": "multilink", "linktype": "story", "id": uuid, "cached_url": cachedURL]
        if let anchor { link["anchor"] = anchor }
        return link
    }

    /// A url multilink, as an editor types it.
    static func urlLink(_ url: String) -> [String: Any] {
        ["fieldtype": "multilink", "linktype": "url", "url": url, "cached_url": url]
    }

    /// Writes `stories` (one file each) and crawls them from `home`.
    static func crawl(_ stories: [[String: Any]], baseURL: String? = nil) async throws -> LinkGraph {
        let folder = try TemporaryFolder()
        for story in stories {
            let data = try JSONSerialization.data(withJSONObject: ["story": story], options: [.sortedKeys])
            let name = (story["uuid"] as? String ?? "story") + ".json"
            try folder.write(name, String(decoding: data, as: UTF8.self))
        }
        let source = try LocalFolderSource(folder: folder.url)
        return try await Crawler(source: source, entries: ["home"], baseURL: baseURL).crawl()
    }
}
