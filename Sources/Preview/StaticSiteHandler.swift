import Foundation
import HTTPServer

/// Answers requests from a folder of static files, as a preview server should: GET and HEAD,
/// `index.html` for folders, a redirect from `/about` to `/about/`, the site's `404.html` for
/// what is missing, `Cache-Control: no-cache` everywhere, and nothing outside the folder
/// (see ``SitePath`` and ``SiteFolder``). With a ``LiveReload`` hub, HTML responses carry the
/// reload script and ``LiveReload/eventsPath`` serves its events.
public struct StaticSiteHandler: Sendable {
    /// The folder served.
    public let root: URL
    private let liveReload: LiveReload?

    /// Serves `root`; pages reload through `liveReload` when given.
    public init(root: URL, liveReload: LiveReload? = nil) {
        self.root = root
        self.liveReload = liveReload
    }

    /// The response to `request`.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return plain(405, "Method not allowed: the preview serves GET and HEAD.\n", extra: [HTTPHeader("Allow", "GET, HEAD")])
        }
        if let liveReload, request.path == LiveReload.eventsPath {
            // HEAD gets the headers alone: an event stream that is never read would stay open.
            return liveReload.eventsResponse(opening: request.method == "GET")
        }
        let path: SitePath
        do {
            path = try SitePath(raw: request.path)
        } catch {
            return plain(403, "Forbidden: the path is not allowed.\n")
        }
        // Asked before the file is read: a rebuild that lands in between makes the page newer
        // than its number says (one reload too many), never older.
        let build = liveReload?.currentBuild ?? 0
        let folder = SiteFolder(root: root)
        switch folder.lookup(path) {
        case .file(let file):
            guard let bytes = Self.read(file) else { return notFound(folder, build: build) }
            return page(200, bytes, type: MediaTypes.type(of: file.lastPathComponent), build: build)
        case .folderWithoutSlash:
            let location = path.encoded + "/" + (request.query.map { "?" + $0 } ?? "")
            return plain(301, "Moved to \(location)\n", extra: [HTTPHeader("Location", location)])
        case .notFound:
            return notFound(folder, build: build)
        case .outside:
            return plain(403, "Forbidden: the path leads outside the served folder.\n")
        }
    }

    /// The site's own `404.html` with status 404, or a short page when it has none; served from
    /// the build numbered `build`.
    private func notFound(_ folder: SiteFolder, build: Int) -> HTTPResponse {
        if let file = folder.topLevelFile("404.html"), let bytes = Self.read(file) {
            return page(404, bytes, type: MediaTypes.type(of: "404.html"), build: build)
        }
        let html = "<!doctype html><html><head><title>Not found</title></head><body><h1>Not found</h1></body></html>\n"
        return page(404, Array(html.utf8), type: MediaTypes.type(of: "404.html"), build: build)
    }

    /// `bytes` as a response, an HTML page with the live-reload script of the build numbered `build`.
    private func page(_ status: Int, _ bytes: [UInt8], type: String, build: Int) -> HTTPResponse {
        let body = liveReload != nil && MediaTypes.isHTML(type) ? ReloadScript.inject(into: bytes, servedFrom: build) : bytes
        return HTTPResponse(status: status, headers: commonHeaders + [HTTPHeader("Content-Type", type)], bytes: body)
    }

    private func plain(_ status: Int, _ text: String, extra: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: commonHeaders + extra, text: text)
    }

    private var commonHeaders: [HTTPHeader] {
        [HTTPHeader("Cache-Control", "no-cache"), HTTPHeader("X-Content-Type-Options", "nosniff")]
    }

    private static func read(_ file: URL) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return [UInt8](data)
    }
}
