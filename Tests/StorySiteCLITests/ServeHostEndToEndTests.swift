import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    @Suite("serve answers only loopback Host names and its --host, end to end")
    struct ServeHostEndToEndTests {
        @Test("a page reached under a foreign name (DNS rebinding) gets 421; localhost and [::1] are served")
        func foreignHost() async throws {
            let workspace = try TemporaryFolder()
            try workspace.write("site/index.html", "<html><body>draft preview</body></html>")
            let server = try ServeProcess(["site", "--port", "0"], in: workspace.url)
            let port = try #require(URL(string: try await server.url())?.port)
            for host in ["evil.example:\(port)", "attacker.test"] {
                let connection = try LoopbackConnection(port: port)
                connection.send("GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                await connection.read { _ in false }
                let response = try #require(connection.response())
                #expect(response.status == 421)
                #expect(response.text.contains("this server answers only for localhost, 127.0.0.1, [::1]"))
                #expect(!response.text.contains("draft preview"))
            }
            for host in ["localhost:\(port)", "[::1]:\(port)", "127.0.0.1"] {
                let connection = try LoopbackConnection(port: port)
                connection.send("GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                await connection.read { _ in false }
                #expect(connection.response()?.text.contains("draft preview") == true, "\(host)")
            }
            #expect(await server.terminate() == 0)
        }
    }
}
