import Foundation
import HTTPServer
import Preview
import TestSupport

/// A temporary workspace holding `site/` (the served folder) and, beside it, `secret.txt`, which
/// no request may reach; `site/` has symlinks leading out and one leading to a page inside.
final class SiteFixture: @unchecked Sendable {
    static let secret = "TOP-SECRET-OUTSIDE-THE-SITE"
    static let home = "<!doctype html>\n<html><head><title>Home</title></head><body><h1>Home</h1></body></html>\n"

    let workspace: TemporaryFolder
    var site: URL { workspace.path("site") }

    init(notFoundPage: Bool = true) throws {
        workspace = try TemporaryFolder(prefix: "storysite-preview")
        try workspace.write("secret.txt", Self.secret)
        try workspace.write("site/index.html", Self.home)
        try workspace.write("site/about/index.html", "<html><body><h1>About</h1></BODY></html>")
        try workspace.write("site/a b/index.html", "<html><body>spaced</body></html>")
        try workspace.write("site/empty/readme.txt", "no index here")
        if notFoundPage { try workspace.write("site/404.html", "<html><body><h1>Custom missing page</h1></body></html>") }
        for (name, contents) in Self.assets { try workspace.write("site/assets/\(name)", contents) }
        let files = FileManager.default
        try files.createSymbolicLink(atPath: site.appendingPathComponent("leak").path, withDestinationPath: "../secret.txt")
        try files.createSymbolicLink(atPath: site.appendingPathComponent("leakdir").path, withDestinationPath: "..")
        try files.createSymbolicLink(atPath: site.appendingPathComponent("inside").path, withDestinationPath: "about/index.html")
    }

    /// One file per media type the preview must label.
    static let assets: [String: String] = [
        "style.css": "body{}", "app.js": "1", "data.json": "{}", "feed.xml": "<a/>", "logo.svg": "<svg/>",
        "image.png": "png", "photo.jpg": "jpg", "anim.gif": "gif", "pic.webp": "webp", "favicon.ico": "ico",
        "font.woff2": "woff2", "notes.txt": "text", "page.html": "<p>x</p>",
    ]

    /// Serves the site (with a live-reload hub when given) for the duration of `body`.
    func serve<Result>(liveReload: LiveReload? = LiveReload(), _ body: (Int) async throws -> Result) async throws -> Result {
        let handler = StaticSiteHandler(root: site, liveReload: liveReload)
        let server = HTTPServer(host: "127.0.0.1", port: 0) { await handler.respond(to: $0) }
        let port = try server.start()
        defer {
            liveReload?.disconnectAll()
            server.stop()
        }
        return try await body(port)
    }
}
