import Foundation
import HTTPServer
import Testing
@testable import Preview

extension PreviewTests {
    @Suite("The Visual Editor's endpoints and scripts")
    struct VisualEditorTests {
        private static let token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
        private static let page = "<html><body><h1>Home</h1></body></html>"

        /// What the editor's closures were called with.
        final class Calls: @unchecked Sendable {
            private let lock = NSLock()
            private var stored: [String] = []
            var all: [String] { lock.withLock { stored } }
            func add(_ call: String) { lock.withLock { stored.append(call) } }
        }

        private static func editor(_ calls: Calls, host: String = "127.0.0.1") -> VisualEditor {
            VisualEditor(
                bridge: "https://bridge.example/v2.js?a=1&b=</script>", host: host, token: token,
                render: { path, story in
                    calls.add("render \(path) \(String(decoding: story, as: UTF8.self))")
                    if path == "/broken/" { return .problem(status: 422, PreviewProblem(location: "posted story:1:2", message: "bad")) }
                    return .page("<h1>Rendered</h1>")
                },
                refresh: { ids in calls.add("refresh \(ids)") })
        }

        private static func post(
            _ target: String, body: String = #"{"uuid": "u"}"#, token: String? = token, origin: String? = "http://127.0.0.1:8080",
            host: String = "127.0.0.1:8080", type: String = "application/json", method: String = "POST"
        ) -> HTTPRequest {
            var headers = [HTTPHeader("Host", host), HTTPHeader("Content-Type", type)]
            if let token { headers.append(HTTPHeader("X-Storysite-Editor-Token", token)) }
            if let origin { headers.append(HTTPHeader("Origin", origin)) }
            return HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
        }

        private static func respond(_ editor: VisualEditor, _ request: HTTPRequest) async -> (status: Int, text: String) {
            let response = await editor.respond(to: request) { _ in
                HTTPResponse(headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")], text: page)
            }
            guard case .bytes(let bytes) = response.body else { return (response.status, "") }
            return (response.status, String(decoding: bytes, as: UTF8.self))
        }

        @Test("the handler's own request renders the posted story at the path it names")
        func render() async throws {
            let calls = Calls()
            let answer = await Self.respond(Self.editor(calls), Self.post("/_storysite/editor/render?path=%2Fabout%2F"))
            #expect(answer.status == 200 && answer.text == "<h1>Rendered</h1>")
            #expect(calls.all == [#"render /about/ {"uuid": "u"}"#])
        }

        @Test("a render's problem is answered with its status and the problems as JSON")
        func problem() async throws {
            let answer = await Self.respond(Self.editor(Calls()), Self.post("/_storysite/editor/render?path=/broken/"))
            #expect(answer.status == 422)
            #expect(answer.text == #"{"problems":[{"location":"posted story:1:2","message":"bad"}]}"#)
        }

        @Test("without the token, with another token, from another origin or host, as GET or as a form: 403, and nothing rendered",
              arguments: [
                  post("/_storysite/editor/render?path=/", token: nil),
                  post("/_storysite/editor/render?path=/", token: String(token.reversed())),
                  post("/_storysite/editor/render?path=/", origin: nil),
                  post("/_storysite/editor/render?path=/", origin: "https://evil.example"),
                  post("/_storysite/editor/render?path=/", origin: "http://evil.example:8080", host: "evil.example:8080"),
                  post("/_storysite/editor/render?path=/", type: "text/plain"),
                  post("/_storysite/editor/render?path=/", type: "application/x-www-form-urlencoded"),
                  post("/_storysite/editor/render?path=/", method: "GET"),
                  post("/_storysite/editor/refresh", token: nil),
              ])
        func refused(request: HTTPRequest) async throws {
            let calls = Calls()
            let answer = await Self.respond(Self.editor(calls), request)
            #expect(answer.status == 403)
            #expect(calls.all.isEmpty)
        }

        @Test("localhost and [::1] are the page's own hosts too; listening on every address admits any host")
        func hosts() async throws {
            #expect(await Self.respond(Self.editor(Calls()), Self.post("/_storysite/editor/render?path=/", origin: "http://localhost:8080", host: "localhost:8080")).status == 200)
            #expect(await Self.respond(Self.editor(Calls()), Self.post("/_storysite/editor/render?path=/", origin: "http://[::1]:8080", host: "[::1]:8080")).status == 200)
            #expect(await Self.respond(Self.editor(Calls(), host: "0.0.0.0"), Self.post("/_storysite/editor/render?path=/", origin: "http://192.168.1.5:8080", host: "192.168.1.5:8080")).status == 200)
        }

        @Test("change and published ask for the story to be fetched again, by its id")
        func refresh() async throws {
            let calls = Calls()
            let answer = await Self.respond(Self.editor(calls), Self.post("/_storysite/editor/refresh", body: #"{"action": "change", "storyId": 101}"#))
            #expect(answer.status == 202)
            let deadline = ContinuousClock.now + .seconds(5)
            while calls.all.isEmpty && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(calls.all == ["refresh [101]"])
        }

        @Test("HTML responses get the handler, carrying the token and the bridge URL as safe string literals; others are as they were")
        func injection() async throws {
            let editor = Self.editor(Calls())
            let html = await Self.respond(editor, HTTPRequest(method: "GET", target: "/"))
            #expect(html.text.hasPrefix("<html><body><h1>Home</h1><script data-storysite-visual-editor>"))
            #expect(html.text.hasSuffix("</script>\n</body></html>"))
            #expect(html.text.contains(#"bridgeURL = "https:\/\/bridge.example\/v2.js?a=1&b=\u003c\/script>""#))
            #expect(html.text.contains("token = \"\(Self.token)\""))
            let css = await editor.respond(to: HTTPRequest(method: "GET", target: "/style.css")) { _ in
                HTTPResponse(headers: [HTTPHeader("Content-Type", "text/css")], text: "body{}")
            }
            guard case .bytes(let bytes) = css.body else { Issue.record("no body"); return }
            #expect(bytes == Array("body{}".utf8))
        }

        @Test("each editor has its own random token")
        func tokens() {
            let first = VisualEditorGate.newToken(), second = VisualEditorGate.newToken()
            #expect(first.count == 64 && first.allSatisfy(\.isHexDigit) && first != second)
        }
    }
}
