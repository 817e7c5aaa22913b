import Foundation
import HTTPServer
import Preview
import StoryModel

/// `POST /_storysite/webhook`: Storyblok's story webhooks (published, unpublished, deleted,
/// moved), each fetching the story again and rebuilding (``ServeRefresh/refreshStories(ids:)``).
///
/// With a secret (`STORYBLOK_WEBHOOK_SECRET`), the `webhook-signature` header must be the hex
/// HMAC-SHA1 of the body under it, else 401 (500 when this machine cannot check it: no
/// libcrypto); without one, only loopback clients are heard (403
/// for others). A body that is not a JSON object is 400; an action other than those four, or no
/// numeric `story_id`, is 422 with a warning. None of these changes anything. An accepted
/// webhook is answered 202 at once, as Storyblok advises, and the refresh runs after.
struct ServeWebhook: Sendable {
    static let path = "/_storysite/webhook"
    /// The actions that change a story's page.
    static let storyActions: Set<String> = ["published", "unpublished", "deleted", "moved"]

    let secret: String?
    let refresh: ServeRefresh
    let console: any Console
    /// Whether accepted webhooks go unmentioned (`--quiet`); refusals are always printed.
    let quiet: Bool

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard request.method == "POST" else {
            return Self.answer(405, "the webhook takes POST", headers: [HTTPHeader("Allow", "POST")])
        }
        if let secret {
            if let unavailability = WebhookSignature.unavailability {
                return refused(500, "cannot check the webhook-signature header: \(unavailability)")
            }
            guard WebhookSignature.isValid(request.header("webhook-signature"), body: request.body, secret: secret) else {
                return refused(401, "the webhook-signature header is not the HMAC-SHA1 of the body under STORYBLOK_WEBHOOK_SECRET")
            }
        } else if !request.isFromLoopback {
            return refused(403, "webhooks from other machines need STORYBLOK_WEBHOOK_SECRET set (and the same secret in Storyblok)")
        }
        guard let payload = try? JSONValue(parsing: request.body), let object = payload.objectValue else {
            return refused(400, "the body is not a JSON object")
        }
        let action = object["action"]?.stringValue ?? ""
        guard Self.storyActions.contains(action) else {
            return refused(422, "action '\(action)' is not one of \(Self.storyActions.sorted().joined(separator: ", ")); nothing to fetch")
        }
        guard let number = object["story_id"]?.numberValue, let id = Int(exactly: number) else {
            return refused(422, "a '\(action)' webhook without a numeric story_id")
        }
        let slug = object["full_slug"]?.stringValue.map { " (\($0))" } ?? ""
        if !quiet { console.out("Webhook: story \(id)\(slug) \(action); fetching it\n") }
        Task { await refresh.refreshStories(ids: [id]) }
        return Self.answer(202, "fetching story \(id)")
    }

    /// A refused webhook: logged as a warning and answered `status`.
    private func refused(_ status: Int, _ reason: String) -> HTTPResponse {
        console.err("\(Self.path): warning: webhook refused (HTTP \(status)): \(reason)\n")
        return Self.answer(status, reason)
    }

    private static func answer(_ status: Int, _ message: String, headers: [HTTPHeader] = []) -> HTTPResponse {
        let key = status < 300 ? "accepted" : "error"
        let body = JSONValue.object(JSONObject([key: .string(message)])).jsonText()
        return HTTPResponse(status: status, headers: headers, text: body + "\n", contentType: "application/json")
    }
}
