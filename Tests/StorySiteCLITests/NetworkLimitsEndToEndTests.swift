import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// The API's limits set in `storysite.json`, against a server on 127.0.0.1 that misbehaves.
    @Suite("Network limits from storysite.json, end to end")
    struct NetworkLimitsEndToEndTests {
        /// A minimal workspace reading the API at `port` with `limits` (JSON members).
        private func workspace(port: Int, limits: String) throws -> TemporaryFolder {
            let workspace = try TemporaryFolder()
            try workspace.write("storysite.json", """
                {"source": {"storyblok": {"apiURL": "http://127.0.0.1:\(port)/v2/cdn", "version": "draft", \(limits)}}}
                """)
            try workspace.write("Templates/layout.mustache", "{{{content}}}")
            try workspace.write("Templates/pages/page.mustache", "<h1>{{story.name}}</h1>")
            return workspace
        }

        @Test("maxResponseMB stops an endless answer at that size, and the build fails saying so")
        func maxResponseSize() async throws {
            let server = try MisbehavingServer(behaviour: MisbehavingServer.endlessBody(head: MisbehavingServer.head(["Content-Type: application/json"])))
            defer { server.stop() }
            let folder = try workspace(port: server.port, limits: #""maxResponseMB": 0.5"#)
            let result = try await Executable.run(["build"], in: folder.url, environment: ["STORYBLOK_TOKEN": "sk-limits-token"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("the response is larger than the limit of 512 KiB (storysite.json: source.storyblok.maxResponseMB)"), "\(result.stderr)")
            #expect(!result.stderr.contains("sk-limits-token"))
            #expect(server.connections == 1)
        }

        @Test("deadline and headersTimeout bound a server that drips its answer")
        func deadline() async throws {
            let server = try MisbehavingServer(behaviour: MisbehavingServer.drip(head: MisbehavingServer.head(["Content-Type: application/json"]), interval: 0.2))
            defer { server.stop() }
            let folder = try workspace(port: server.port, limits: #""deadline": 1.5, "headersTimeout": 0.5"#)
            let result = try await Executable.run(["build"], in: folder.url, environment: ["STORYBLOK_TOKEN": "sk-limits-token"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("the response was not complete within the deadline of 1.5 s"), "\(result.stderr)")
        }

        @Test("a limit that is not a positive number is a usage error naming the key")
        func invalidLimit() async throws {
            let folder = try workspace(port: 9, limits: #""deadline": -1"#)
            let result = try await Executable.run(["build"], in: folder.url, environment: ["STORYBLOK_TOKEN": "sk-limits-token"])
            #expect(result.status == 64)
            #expect(result.stderr.contains("'source.storyblok.deadline' must be a positive number of seconds, such as 30"), "\(result.stderr)")
        }
    }
}
