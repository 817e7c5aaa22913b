import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("Sitemap, robots and folder rules")
    struct SitemapTests {
        @Test("the sitemap lists absolute URLs sorted by URL with lastmod from publication")
        func sitemap() {
            let xml = Sitemap.xml(entries: [
                .init(url: "blog/post/", lastModified: "2025-03-04T10:12:00.000Z"),
                .init(url: "", lastModified: nil),
                .init(url: "about/", lastModified: "2025-01-01T00:00:00.000Z"),
            ], baseURL: "https://example.com")
            #expect(xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                  <url>
                    <loc>https://example.com/</loc>
                  </url>
                  <url>
                    <loc>https://example.com/about/</loc>
                    <lastmod>2025-01-01T00:00:00.000Z</lastmod>
                  </url>
                  <url>
                    <loc>https://example.com/blog/post/</loc>
                    <lastmod>2025-03-04T10:12:00.000Z</lastmod>
                  </url>
                </urlset>

                """)
        }

        @Test("sitemap URLs are percent-encoded")
        func encodedURLs() {
            #expect(Sitemap.absoluteURL("blog/café au lait/", baseURL: "https://example.com/") == "https://example.com/blog/caf%C3%A9%20au%20lait/")
        }

        @Test("every ASCII character in a slug is encoded as Foundation's path encoding would")
        func asciiMatchesFoundation() {
            for byte in UInt8(0x20)...UInt8(0x7E) {
                let slug = "blog/a" + String(UnicodeScalar(byte)) + "b/"
                let expected = "https://example.com/" + slug.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
                #expect(Sitemap.absoluteURL(slug, baseURL: "https://example.com/") == expected, "\(slug)")
            }
        }

        @Test("robots.txt points at the sitemap under the base URL")
        func robots() {
            #expect(Sitemap.robots(baseURL: "https://example.com/docs/")
                == "User-agent: *\nAllow: /\n\nSitemap: https://example.com/docs/sitemap.xml\n")
        }

        @Test("the output folder may not be the current folder, the source or the templates")
        func protectedFolders() throws {
            let workspace = try TemporaryFolder()
            let content = workspace.path("Content")
            let templates = workspace.path("Templates")
            let protected = [(name: "source", url: content), (name: "templates", url: templates)]
            func check(_ output: URL) throws {
                try OutputFolderRules.check(
                    output: output, displayPath: output.lastPathComponent, currentFolder: workspace.url, protected: protected)
            }
            #expect(throws: OutputError.self) { try check(workspace.url) }
            #expect(throws: OutputError.self) { try check(workspace.url.deletingLastPathComponent()) }
            #expect(throws: OutputError.self) { try check(content) }
            #expect(throws: OutputError.self) { try check(templates.appendingPathComponent("out")) }
            #expect {
                try check(content)
            } throws: { error in
                (error as? OutputError)?.message.hasPrefix("the output folder cannot be, contain or lie inside the source folder") == true
            }
            try check(workspace.path("Output"))
        }
    }
}
