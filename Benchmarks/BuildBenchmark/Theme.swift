import Foundation
import SyntheticSpace

/// The synthetic space's theme (``SyntheticSpace/theme``, as render-benchmark uses it) and a style
/// sheet, written into the benchmark's `Templates/`.
enum Theme {
    static let styleSheet = "body { font: 16px/1.5 sans-serif; max-width: 40rem; margin: auto; }\n"

    /// The `storysite.json` of a build that lists the posts folder (`listing`: entries home and
    /// the folder's start page, newest first, 10 to a page, with a feed) and builds several
    /// `languages` (the default first); nil for neither, the plain build.
    static func settings(listing: Bool, languages: [String]) -> String? {
        var lines: [String] = []
        if listing {
            lines.append(#""entry": ["home", "posts/"]"#)
            lines.append(#""listings": {"posts/": {"sort": "first_published_at desc", "perPage": 10, "feed": true}}"#)
        }
        if languages.count > 1 { lines.append(#""languages": ["# + languages.map { "\"\($0)\"" }.joined(separator: ", ") + "]") }
        return lines.isEmpty ? nil : "{" + lines.joined(separator: ",\n ") + "}\n"
    }

    /// Writes the templates and the style sheet into `folder`.
    static func write(to folder: URL) throws {
        let files = SyntheticSpace.theme.map { ($0.key + ".mustache", $0.value) } + [("assets/style.css", styleSheet)]
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }
}
