import Foundation
import HTTPServer
import Testing
import TestSupport

extension StorySiteCLITests {
    /// The port rules of `serve`, checked before anything is built.
    @Suite("storysite serve's port, end to end")
    struct ServePortEndToEndTests {
        @Test("a busy --port is an error before building, suggesting --port 0")
        func busyExplicitPort() async throws {
            let holder = HTTPServer(host: "127.0.0.1", port: 0) { _ in HTTPResponse(text: "taken") }
            let port = try holder.start()
            defer { holder.stop() }
            let workspace = try BuildEndToEndTests.demoWorkspace()
            let result = try await Executable.run(["serve", "--port", String(port)], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("cannot listen on 127.0.0.1:\(port)"), "\(result.stderr)")
            #expect(result.stderr.contains("--port 0 to pick a free one"), "\(result.stderr)")
            #expect(!workspace.exists("Output"), "the port is checked before building")
        }

        @Test("a busy default port gives way to the next free one, and serve says so")
        func busyDefaultPort() async throws {
            // Port 8080 is held here, unless something else on the machine holds it already.
            let holder = HTTPServer(host: "127.0.0.1", port: 8080) { _ in HTTPResponse(text: "taken") }
            _ = try? holder.start()
            defer { holder.stop() }
            let workspace = try TemporaryFolder()
            try workspace.write("site/index.html", "<html><body>prebuilt</body></html>")
            let server = try ServeProcess(["site"], in: workspace.url)
            let url = try await server.url()
            let port = try #require(URL(string: url)?.port)
            #expect(port > 8080 && port <= 8100)
            #expect(server.output.hasPrefix("Port 8080 is in use; serving on \(port) instead.\n"), "\(server.output)")
            #expect(try await ServeEndToEndTests.get(url).body.contains("prebuilt"))
            #expect(await server.terminate() == 0)
        }
    }
}
