import Foundation
import SyntheticSpace

/// The theme a build is measured with (`--theme`), written with a style sheet into the
/// benchmark's `Templates/`; ``HugoSite`` writes Hugo's version of it.
/// - `plain`, the default: the synthetic space's own (``SyntheticSpace/theme``, as render-benchmark
///   uses it): breadcrumbs and backlinks in the layout, each block through its component template.
/// - `heavy`: besides, a 40-item navigation on every page and every block through a wrapping
///   partial (see HeavyTheme.swift).
enum Theme: String, CaseIterable {
    case plain, heavy

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

    /// The storysite templates by name (`components/hero`).
    var templates: [String: String] {
        switch self {
        case .plain: SyntheticSpace.theme
        case .heavy: Self.heavyTemplates
        }
    }

    /// Writes the templates and the style sheet into `folder`.
    func write(to folder: URL) throws {
        let files = templates.map { ($0.key + ".mustache", $0.value) } + [("assets/style.css", Self.styleSheet)]
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }
}
