import Foundation
import StoryModel

/// Writes the stories of a `pull` as a folder that ``LocalFolderSource`` reads back to the same
/// stories: `<full_slug>.json` holding `{"story": …}`, a folder's start page `blog/` as
/// `blog.json` (beside the `blog/` folder; `blog` and `blog/` cannot both exist, they would be
/// one page).
///
/// It writes only into a new or empty folder, or one an earlier pull made (a `.storysite-pull`
/// file lists what it wrote; those files are replaced and the ones no longer pulled removed).
/// Any other non-empty folder is refused unless `force`, and then only files are added or
/// overwritten.
public enum PulledFolderWriter {
    /// The file that marks a folder as made by `pull` and lists the files it wrote.
    public static let markerName = ".storysite-pull"

    /// Why a pull could not be written.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String

        public init(_ description: String) {
            self.description = description
        }
    }

    /// The file a story is written to, relative to the folder (`blog/post.json`). Throws for a
    /// slug whose file breaks the ``SafePath`` rule, or could not be read back (a segment
    /// starting with `.`: hidden files are not read).
    public static func relativePath(for story: Story) throws(Failure) -> String {
        let key = SlugLookup.key(story.fullSlug)
        let path = key + ".json"
        let problem = key.isEmpty ? "it is empty"
            : key.split(separator: "/").contains(where: { $0.hasPrefix(".") && $0 != "." && $0 != ".." }) ? "a part starts with '.'"
            : SafePath.problem(in: path)
        if let problem {
            throw Failure("story \(story.uuid) has the full_slug '\(story.fullSlug)', which cannot be a file name in the pulled folder: \(problem)")
        }
        return SafePath.normalized(path)
    }

    /// Writes `stories` into `folder`, creating it when needed. Returns the files written,
    /// relative to the folder, in order.
    @discardableResult
    public static func write(stories: [Story], to folder: URL, force: Bool = false) throws(Failure) -> [String] {
        var paths: [String] = []
        var owners: [String: Story] = [:]
        for story in stories {
            let path = try relativePath(for: story)
            if let other = owners[path] {
                throw Failure("stories \(other.uuid) ('\(other.fullSlug)') and \(story.uuid) ('\(story.fullSlug)') would both be written to \(path)")
            }
            owners[path] = story
            paths.append(path)
        }

        let manager = FileManager.default
        let marker = folder.appendingPathComponent(markerName)
        let shown = folder.path
        var earlier: [String] = []
        if manager.fileExists(atPath: marker.path) {
            guard let text = try? String(contentsOf: marker, encoding: .utf8) else {
                throw Failure("\(shown): cannot read \(markerName)")
            }
            earlier = text.split(separator: "\n").map(String.init)
        } else if let contents = try? manager.contentsOfDirectory(atPath: shown), !contents.isEmpty, !force {
            throw Failure("\(shown) is not empty and was not made by pull; give a new or empty folder, or --force to write into it")
        }

        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            let current = Set(paths)
            // The list may come from a cache or a download: it names nothing outside the folder.
            for stale in earlier where !current.contains(stale) && SafePath.problem(in: stale) == nil {
                try? manager.removeItem(at: folder.appendingPathComponent(stale))
                removeEmptyParents(of: stale, in: folder)
            }
            for (path, story) in zip(paths, stories) {
                let file = folder.appendingPathComponent(path)
                try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                let text = JSONValue.object(JSONObject([JSONObject.Entry(key: "story", value: .object(story.raw))])).jsonText(pretty: true) + "\n"
                try Data(text.utf8).write(to: file, options: .atomic)
            }
            try Data(paths.sorted().map { $0 + "\n" }.joined().utf8).write(to: marker, options: .atomic)
        } catch {
            throw Failure("\(shown): cannot write the pulled stories: \(error.localizedDescription)")
        }
        return paths
    }

    private static func removeEmptyParents(of path: String, in folder: URL) {
        var parent = (path as NSString).deletingLastPathComponent
        while !parent.isEmpty {
            let url = folder.appendingPathComponent(parent)
            guard (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.isEmpty == true else { return }
            try? FileManager.default.removeItem(at: url)
            parent = (parent as NSString).deletingLastPathComponent
        }
    }
}
