import Foundation
import LinkCheck
import NetworkLimits
import Testing

extension LinkCheckTests {
    @Suite("External link check")
    struct ExternalLinkCheckTests {
        private static let quick = ExternalLinkCheck.Options(retries: 2, retryDelay: .zero)

        private func statuses(_ client: ScriptedHTTPClient, _ urls: [String], options: ExternalLinkCheck.Options = quick) async -> [String: ExternalLinkStatus] {
            let result = await ExternalLinkCheck(client: client, options: options).check(urls.map { URL(string: $0)! })
            return Dictionary(uniqueKeysWithValues: result.map { ($0.key.absoluteString, $0.value) })
        }

        @Test("a HEAD success is enough; a refused HEAD (405, 501, 403) is tried again with GET")
        func headThenGet() async {
            let client = ScriptedHTTPClient([
                "HEAD https://a.test/405": [.success(405)], "HEAD https://a.test/501": [.success(501)],
                "HEAD https://a.test/403": [.success(403)], "HEAD https://a.test/404": [.success(404)],
                "GET https://a.test/404": [.success(404)],
            ])
            let result = await statuses(client, ["https://a.test/ok", "https://a.test/405", "https://a.test/501", "https://a.test/403", "https://a.test/404"])
            #expect(result == [
                "https://a.test/ok": .reachable, "https://a.test/405": .reachable, "https://a.test/501": .reachable,
                "https://a.test/403": .reachable, "https://a.test/404": .broken("HTTP 404"),
            ])
            #expect(await client.requests.sorted() == [
                "GET https://a.test/403", "GET https://a.test/404", "GET https://a.test/405", "GET https://a.test/501",
                "HEAD https://a.test/403", "HEAD https://a.test/404", "HEAD https://a.test/405", "HEAD https://a.test/501",
                "HEAD https://a.test/ok",
            ])
        }

        @Test("server errors and timeouts are retried a bounded number of times, then broken")
        func boundedRetries() async {
            let timeout = HTTPClientError.timedOut(.seconds(10))
            let client = ScriptedHTTPClient([
                "HEAD https://a.test/flaky": [.success(503), .failure(timeout), .success(200)],
                "HEAD https://a.test/down": [.success(503)], "GET https://a.test/down": [.success(503)],
                "HEAD https://a.test/slow": [.failure(timeout)],
                "HEAD https://a.test/refused": [.failure(.failed("Connection refused"))],
            ])
            let result = await statuses(client, ["https://a.test/flaky", "https://a.test/down", "https://a.test/slow", "https://a.test/refused"])
            #expect(result == [
                "https://a.test/flaky": .reachable, "https://a.test/down": .broken("HTTP 503"),
                "https://a.test/slow": .broken("no response within 10 s"), "https://a.test/refused": .broken("cannot connect: Connection refused"),
            ])
            let requests = await client.requests
            #expect(requests.count { $0 == "HEAD https://a.test/flaky" } == 3)
            #expect(requests.count { $0.hasSuffix("https://a.test/down") } == 6)
            #expect(requests.count { $0.hasSuffix("https://a.test/slow") } == 3)
            #expect(requests.count { $0.hasSuffix("https://a.test/refused") } == 3)
        }

        @Test("HTTP 429 is a rate-limit warning, neither retried nor broken")
        func rateLimited() async throws {
            let client = ScriptedHTTPClient(["HEAD https://busy.test/": [.success(429)]])
            let report = try await Fixture.check(
                ["index.html": Fixture.page(##"<a href="https://busy.test/">Busy</a>"##)],
                options: .init(checkExternal: true), externalCheck: ExternalLinkCheck(client: client, options: Self.quick))
            #expect(report.findings == [Fixture.warning("index.html", line: 3, "https://busy.test/", "rate limited (HTTP 429); not checked")])
            #expect(await client.requests == ["HEAD https://busy.test/"])
        }

        @Test("each URL is requested once per run, whatever its fragment, case of scheme and host, or the pages linking it")
        func eachURLOnce() async throws {
            let client = ScriptedHTTPClient(["HEAD https://a.test/gone": [.success(410)], "GET https://a.test/gone": [.success(410)]])
            let report = try await Fixture.check(
                [
                    "index.html": Fixture.page(##"<a href="https://a.test/gone#one">1</a>"##, ##"<a href="HTTPS://A.TEST/gone#two">2</a>"##),
                    "other.html": Fixture.page(##"<a href="https://a.test/gone">3</a>"##),
                ],
                options: .init(checkExternal: true), externalCheck: ExternalLinkCheck(client: client, options: Self.quick))
            #expect(await client.requests == ["HEAD https://a.test/gone", "GET https://a.test/gone"])
            #expect(report.findings == [
                Fixture.broken("index.html", line: 3, "https://a.test/gone#one", "HTTP 410"),
                Fixture.broken("index.html", line: 4, "HTTPS://A.TEST/gone#two", "HTTP 410"),
                Fixture.broken("other.html", line: 3, "https://a.test/gone", "HTTP 410"),
            ])
            #expect(report.links == 3)
        }

        @Test("where no host name resolves, nothing is requested and the links are counted as not checked, not broken")
        func noNameResolution() async throws {
            let client = ScriptedHTTPClient(resolvesNames: false)
            let result = await statuses(client, ["https://a.test/x", "https://b.test/y#z"])
            #expect(result == [
                "https://a.test/x": .unchecked(ExternalLinkCheck.noNameResolution),
                "https://b.test/y#z": .unchecked(ExternalLinkCheck.noNameResolution),
            ])
            #expect(await client.requests.isEmpty)
            let report = try await Fixture.check(
                ["index.html": Fixture.page(#"<a href="https://a.test/x">x</a> <a href="https://a.test/x#y">y</a> <a href="missing.html">m</a>"#)],
                options: .init(checkExternal: true), externalCheck: ExternalLinkCheck(client: client, options: Self.quick))
            #expect(report.findings == [Fixture.broken("index.html", line: 3, "missing.html", "no file or folder 'missing.html'")])
            #expect(report.links == 1)
            #expect(report.unchecked == 2 && report.uncheckedReason == ExternalLinkCheck.noNameResolution)
        }

        @Test("name resolution is probed with the links' own hosts: localhost and IP literals resolve, '.invalid' names never do")
        func probe() async {
            #expect(NameResolution.resolves("localhost"))
            #expect(NameResolution.resolves("127.0.0.1") && NameResolution.resolves("[::1]"))
            #expect(!NameResolution.resolves("storysite.invalid"))
            #expect(await NameResolution.works(probing: ["nothing.invalid", "127.0.0.1"]))
        }

        @Test("no more requests than the per-host limit are in flight to one host")
        func perHostLimit() async {
            let client = ScriptedHTTPClient(latency: .milliseconds(20))
            let urls = (0..<12).map { "https://\($0 % 2 == 0 ? "a" : "b").test/\($0)" }
            let options = ExternalLinkCheck.Options(requestsPerHost: 3, concurrentHosts: 2, retryDelay: .zero)
            let result = await statuses(client, urls, options: options)
            #expect(result.count == 12 && result.values.allSatisfy { $0 == .reachable })
            #expect((1...3).contains(await client.mostInFlightPerHost))
        }

        @Test("the default client checks against a local HTTP server: HEAD, GET where HEAD is refused, redirects, 404 and 429",
              .enabled(if: LocalHTTPServer.python3 != nil, "python3 is not installed: the local HTTP server cannot run"))
        func localServer() async throws {
            let server = try LocalHTTPServer()
            let base = "http://127.0.0.1:\(server.port)"
            let check = ExternalLinkCheck(options: .init(limits: NetworkLimits(headersTimeout: .seconds(5), deadline: .seconds(10), maximumBodySize: 0), retries: 0))
            let urls = ["/ok", "/no-head", "/moved", "/missing", "/busy"].map { URL(string: base + $0)! }
            let result = await check.check(urls)
            #expect(urls.map { result[$0] } == [.reachable, .reachable, .reachable, .broken("HTTP 404"), .rateLimited])
            #expect(server.stop() == [
                "HEAD /ok", "HEAD /no-head", "GET /no-head", "HEAD /moved", "HEAD /ok", "HEAD /missing", "GET /missing", "HEAD /busy",
            ].sorted())
        }
    }
}
