import Foundation
import HTTPServer

/// Storyblok's Visual Editor in the preview. HTML responses carry the Storyblok Bridge and the
/// handler script (``VisualEditorScript``; in responses only, never in files), and two endpoints
/// answer that handler:
/// - `POST /_storysite/editor/render?path=<page path>` with a story's JSON (the bridge's `input`
///   event): the page rendered with it, or its problems as `{"problems": [...]}`;
/// - `POST /_storysite/editor/refresh` with `{"action": …, "storyId": …}` (`change`,
///   `published`): the stories are fetched again and the site rebuilt; pages reload after.
///
/// Only the handler on a page served here gets an answer (``VisualEditorGate``); anything
/// else gets 403.
public struct VisualEditor: Sendable {
    /// What rendering a posted story gave.
    public enum Rendered: Sendable {
        /// The page's HTML.
        case page(String)
        /// Why it could not be shown, and the status to answer with (404 no page at the path,
        /// 409 the page shows another story, 422 the story is not valid or failed to render).
        case problem(status: Int, PreviewProblem)
    }

    /// Renders the page at `path` (decoded, `/blog/post/`) with the posted story JSON `story`.
    public typealias Render = @Sendable (_ path: String, _ story: [UInt8]) async -> Rendered
    /// Fetches the stories with these ids (empty when the event named none) again and rebuilds.
    public typealias Refresh = @Sendable (_ storyIDs: [Int]) async -> Void

    public static let renderPath = "/_storysite/editor/render"
    public static let refreshPath = "/_storysite/editor/refresh"
    /// Where every path of the editor's endpoints starts.
    static let pathPrefix = "/_storysite/editor/"

    private let gate: VisualEditorGate
    private let scripts: String
    private let render: Render
    private let refresh: Refresh

    /// The editor for a preview listening on `host`, whose pages load the bridge from `bridge`.
    /// `token` is the secret the handler script carries: random for each process unless given.
    public init(bridge: String, host: String, token: String? = nil, render: @escaping Render, refresh: @escaping Refresh) {
        let token = token ?? VisualEditorGate.newToken()
        gate = VisualEditorGate(token: token, host: host)
        scripts = VisualEditorScript.tags(bridge: bridge, token: token)
        self.render = render
        self.refresh = refresh
    }

    /// The answer to `request`: the editor's endpoints here, everything else from `site`, its
    /// HTML with the bridge and the handler added.
    public func respond(to request: HTTPRequest, site: (HTTPRequest) async -> HTTPResponse) async -> HTTPResponse {
        if request.path.hasPrefix(Self.pathPrefix) { return await answer(request) }
        var response = await site(request)
        if let type = response.headers.value(named: "Content-Type"), MediaTypes.isHTML(type), case .bytes(let bytes) = response.body {
            response.body = .bytes(ReloadScript.insert(scripts, into: bytes))
        }
        return response
    }

    private func answer(_ request: HTTPRequest) async -> HTTPResponse {
        guard gate.admits(request) else {
            return Self.reply(403, text: "Forbidden: only the Visual Editor handler of a page served here may call \(request.path).\n")
        }
        switch request.path {
        case Self.renderPath:
            switch await render(request.queryValue("path") ?? "/", request.body) {
            case .page(let html):
                return HTTPResponse(status: 200, headers: Self.headers + [HTTPHeader("Content-Type", "text/html; charset=utf-8")], text: html)
            case .problem(let status, let problem):
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let body = (try? encoder.encode(["problems": [problem]])) ?? Data()
                return HTTPResponse(
                    status: status, headers: Self.headers + [HTTPHeader("Content-Type", "application/json")], bytes: [UInt8](body))
            }
        case Self.refreshPath:
            let ids = Self.storyIDs(in: request.body)
            Task { await refresh(ids) }
            return Self.reply(202, text: "Fetching the stories again; open pages reload when the site is rebuilt.\n")
        default:
            return Self.reply(404, text: "Not found: the editor answers \(Self.renderPath) and \(Self.refreshPath).\n")
        }
    }

    /// The `storyId` of a refresh request's JSON (a number, or a number in a string), when it has one.
    static func storyIDs(in body: [UInt8]) -> [Int] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return [] }
        switch object["storyId"] {
        case let id as String: return Int(id).map { [$0] } ?? []
        case let id as NSNumber where id.doubleValue == id.doubleValue.rounded(): return [id.intValue]
        default: return []
        }
    }

    private static let headers = [HTTPHeader("Cache-Control", "no-store"), HTTPHeader("X-Content-Type-Options", "nosniff")]

    private static func reply(_ status: Int, text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, text: text)
    }
}
