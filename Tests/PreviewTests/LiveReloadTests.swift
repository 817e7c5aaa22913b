import Foundation
import Testing
import TestSupport
@testable import Preview

extension PreviewTests {
    @Suite("Live reload events")
    struct LiveReloadTests {
        @Test("a page's event stream says hello, then reload after a rebuild, with heartbeats in between")
        func reloadEvent() async throws {
            let fixture = try SiteFixture()
            let hub = LiveReload(heartbeat: .milliseconds(100))
            try await fixture.serve(liveReload: hub) { port in
                let client = try LoopbackConnection(port: port)
                client.send("GET /_storysite/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await client.read { $0.contains("event: hello\ndata: {\"build\":0}\n\n") })
                #expect(client.text.contains("Content-Type: text/event-stream"))
                #expect(client.text.contains("Cache-Control: no-cache"))
                #expect(client.text.contains("Transfer-Encoding: chunked"))
                #expect(await client.read { $0.contains(": heartbeat") })
                hub.reload()
                #expect(await client.read { $0.contains("event: reload\ndata: {\"build\":1}\n\n") })
            }
        }

        @Test("a failed rebuild reaches open pages as an error event, and new pages get it on connect until a reload")
        func errorState() async throws {
            let fixture = try SiteFixture()
            let hub = LiveReload(heartbeat: .seconds(30))
            try await fixture.serve(liveReload: hub) { port in
                let open = try LoopbackConnection(port: port)
                open.send("GET /_storysite/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await open.read { $0.contains("event: hello") })
                #expect(await eventually { hub.clientCount == 1 })
                hub.showProblems([PreviewProblem(location: "Templates/layout.mustache:3:5", message: "unclosed section 'x' <b>")])
                #expect(await open.read { $0.contains("event: error\ndata: ") })
                #expect(open.text.contains(#""location":"Templates\/layout.mustache:3:5""#))
                #expect(open.text.contains(#""message":"unclosed section 'x' <b>""#))

                let late = try LoopbackConnection(port: port)
                late.send("GET /_storysite/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await late.read { $0.contains("event: error") && $0.contains("unclosed section") })

                hub.reload()
                #expect(hub.currentProblems.isEmpty)
                let after = try LoopbackConnection(port: port)
                after.send("GET /_storysite/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await after.read { $0.contains("event: hello\ndata: {\"build\":1}") })
                #expect(await after.read(timeout: 0.3) { $0.contains("event: error") } == false)
            }
        }

        @Test("a page that leaves is forgotten once a heartbeat finds it gone")
        func departure() async throws {
            let fixture = try SiteFixture()
            let hub = LiveReload(heartbeat: .milliseconds(50))
            try await fixture.serve(liveReload: hub) { port in
                var client: LoopbackConnection? = try LoopbackConnection(port: port)
                client?.send("GET /_storysite/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await client?.read { $0.contains("event: hello") } == true)
                #expect(await eventually { hub.clientCount == 1 })
                client = nil
                #expect(await eventually { hub.clientCount == 0 })
            }
        }

        @Test("HEAD on the event stream answers its headers and opens no stream")
        func headOnEvents() async throws {
            let fixture = try SiteFixture()
            let hub = LiveReload()
            try await fixture.serve(liveReload: hub) { port in
                let response = try await LoopbackConnection.request("HEAD", LiveReload.eventsPath, port: port)
                #expect(response.status == 200)
                #expect(response.headers["content-type"] == "text/event-stream; charset=utf-8")
                #expect(hub.clientCount == 0)
            }
        }

        @Test("the overlay script sets text through textContent, never innerHTML")
        func overlayIsEscaped() {
            let tag = ReloadScript.tag(servedFrom: 0)
            #expect(tag.contains("textContent"))
            #expect(!tag.contains("innerHTML"))
            #expect(tag.contains(LiveReload.eventsPath))
        }

        @Test("without </body> the script is appended")
        func appended() {
            let page = Array("<p>fragment</p>".utf8)
            #expect(ReloadScript.inject(into: page, servedFrom: 3) == page + Array(ReloadScript.tag(servedFrom: 3).utf8))
        }

        @Test("a page carries the number of the build it was served from, so a hello naming a later one reloads it")
        func servedBuild() async throws {
            let fixture = try SiteFixture()
            let hub = LiveReload(heartbeat: .seconds(30))
            try await fixture.serve(liveReload: hub) { port in
                let before = try await LoopbackConnection.request("GET", "/", port: port)
                #expect(String(decoding: before.body, as: UTF8.self).contains("var servedBuild = 0,"))
                hub.reload()
                hub.reload()
                let after = String(decoding: try await LoopbackConnection.request("GET", "/", port: port).body, as: UTF8.self)
                #expect(after.contains("var servedBuild = 2,"))
                #expect(after.contains("if (build !== servedBuild) { location.reload(); return; }"))
            }
        }
    }
}
