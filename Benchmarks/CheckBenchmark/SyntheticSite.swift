import Foundation
import TestSupport

/// A generated site of pretty-URL pages (`s3/p42/index.html`), each about 5 KB with 22 internal
/// links (stylesheet, icon, script, navigation, links into sections of other pages, an image
/// with a `srcset` whose candidates include a percent-encoded UTF-8 name), a `mailto:` and an
/// external link; the home page lists every page. Every third page has one broken link planted,
/// of a rotating kind, each distinct within its page. Generation is deterministic.
struct SyntheticSite {
    /// The kinds of planted broken links.
    enum Plant: CaseIterable {
        case missingPage, missingAnchorOnOtherPage, missingSrcsetCandidate, missingEncodedName, missingAnchorOnSamePage

        /// Whether linkchecker can see it: it checks files, not anchors on folder URLs.
        var isFileLevel: Bool { self == .missingPage || self == .missingSrcsetCandidate || self == .missingEncodedName }
    }

    let pageCount: Int
    private static let imageCount = 50

    /// The pages' paths from the site root.
    func path(_ page: Int) -> String {
        page == 0 ? "index.html" : "s\(page / 100)/p\(page % 100)/index.html"
    }

    /// What is planted on `page`, if anything.
    func plant(on page: Int) -> Plant? {
        page % 3 == 1 ? Plant.allCases[(page / 3) % Plant.allCases.count] : nil
    }

    /// The number of broken links planted (one finding each).
    var plantedCount: Int { (0..<pageCount).count { plant(on: $0) != nil } }

    /// Writes the site into `folder`, which must exist.
    func write(to folder: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: folder.appendingPathComponent("assets"), withIntermediateDirectories: true)
        for image in 0..<Self.imageCount {
            for name in ["img-\(image).jpg", "img-\(image)@2x.jpg", "photo café \(image).jpg"] {
                try Data("jpg".utf8).write(to: folder.appendingPathComponent("assets/\(name)"))
            }
        }
        for asset in ["assets/site.css", "assets/app.js", "favicon.ico"] {
            try Data("asset".utf8).write(to: folder.appendingPathComponent(asset))
        }
        for page in 0..<pageCount {
            let file = folder.appendingPathComponent(path(page))
            if page % 100 == 0 || page == 1 {
                try manager.createDirectory(at: file.deletingLastPathComponent().deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(html(page).utf8).write(to: file)
        }
    }

    private func html(_ page: Int) -> String {
        var random = SplitMix64(state: UInt64(page) &* 0x9E37_79B9_7F4A_7C15)
        let root = page == 0 ? "" : "../../"
        func url(_ target: Int) -> String {
            target == 0 ? (page == 0 ? "./" : root) : root + "s\(target / 100)/p\(target % 100)/"
        }
        func otherPage() -> Int { Int(random.next() % UInt64(pageCount)) }
        let plant = plant(on: page)
        let image = Int(random.next() % UInt64(Self.imageCount))

        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Page \(page) &amp; friends</title>
            <link rel="stylesheet" href="\(root)assets/site.css?v=3"><link rel="icon" href="/favicon.ico">
            <script src="\(root)assets/app.js" defer></script></head>
            <body><header><nav><a href="\(url(0))">Home</a> <a href="\(url(otherPage()))">Next</a> <a href="\(url(otherPage()))">Related</a></nav></header>
            <main id="main"><article><h1 id="title">Page \(page)</h1>

            """
        for section in 0..<6 {
            var first = "\(url(otherPage()))#h\(random.next() % 6)"
            if section == 2, plant == .missingPage { first = root + "s\(page / 100)/p\(100 + page % 100)/" }
            if section == 3, plant == .missingAnchorOnOtherPage { first = "\(url(otherPage()))#h\(6 + page % 3)" }
            if section == 4, plant == .missingAnchorOnSamePage { first = "#nowhere-\(page % 5)" }
            html += """
                <section id="h\(section)"><h2>Heading \(section)</h2>
                <p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. \
                See <a href="\(first)">this part</a> and <a href="\(url(otherPage()))">that page</a>. \
                Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat &copy; 2025.</p></section>

                """
        }
        let third = plant == .missingSrcsetCandidate ? "img-\(image)@3x.jpg" : "photo%20caf%C3%A9%20\(image).jpg"
        let source = plant == .missingEncodedName ? "photo%20caf%C3%A9%20\(image + Self.imageCount).jpg" : "img-\(image).jpg"
        html += """
            <figure><img src="\(root)assets/\(source)" srcset="\(root)assets/img-\(image)@2x.jpg 2x,\(root)assets/\(third) 3x" alt=""></figure>
            </article></main>
            <footer><a href="#main">Top</a> <a href="mailto:studio@example.com">Mail</a> <a href="https://example.com/">Elsewhere</a></footer>

            """
        if page == 0 {
            html += "<ul>\n"
            for target in 1..<pageCount { html += "<li><a href=\"\(url(target))\">Page \(target)</a></li>\n" }
            html += "</ul>\n"
        }
        return html + "</body></html>\n"
    }
}
