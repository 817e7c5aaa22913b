import HTTPServer
import Preview

/// What `serve` answers: its own endpoints first, then the site's files.
struct ServeRoutes: Sendable {
    let site: StaticSiteHandler
    /// Storyblok's webhooks, when the source is the API.
    var webhook: ServeWebhook?
    /// The Visual Editor's endpoints and scripts, with drafts.
    var editor: VisualEditor?

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        if let webhook, request.path == ServeWebhook.path {
            return await webhook.respond(to: request)
        }
        guard let editor else { return await site.respond(to: request) }
        return await editor.respond(to: request) { await site.respond(to: $0) }
    }
}
