import Foundation
@testable import NetworkLimits
import Testing
import TestSupport

@Suite("Network limits: the limited fetcher against a misbehaving server")
struct LimitedFetcherTests {
    /// Generous timeouts where they are not what is tested: the tests share two cores with others.
    private static let limits = NetworkLimits(headersTimeout: .seconds(5), deadline: .seconds(10), maximumBodySize: 64 << 10)

    private func fetch(
        _ server: MisbehavingServer, readingBody: Bool = true, limits: NetworkLimits = limits
    ) async -> Result<LimitedFetcher.Response, FetchFailure> {
        let request = LimitedFetcher.Request(url: URL(string: "http://127.0.0.1:\(server.port)/")!)
        do throws(FetchFailure) {
            return .success(try await LimitedFetcher().fetch(request, readingBody: readingBody, within: RequestDeadline(limits)))
        } catch {
            return .failure(error)
        }
    }

    @Test("a whole body within the limits arrives, decoded")
    func complete() async throws {
        let server = try MisbehavingServer { client in
            client.send(MisbehavingServer.head(["Content-Length: 5"]) + "hello")
        }
        defer { server.stop() }
        let response = try await fetch(server).get()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "hello")
    }

    @Test("a gzip body is counted as it decodes", arguments: [32 << 10, 1 << 20])
    func gzip(decodedSize: Int) async throws {
        let server = try MisbehavingServer(behaviour: MisbehavingServer.gzipBomb(decodedSize: decodedSize))
        defer { server.stop() }
        let result = await fetch(server)
        if decodedSize <= Self.limits.maximumBodySize {
            let body = try result.get().body
            #expect(body.count == 1 + (decodedSize - 1) / 258 * 258 && body.allSatisfy { $0 == 0 })
        } else {
            #expect(throws: FetchFailure.bodyTooLarge(limit: 64 << 10)) { try result.get() }
        }
    }

    @Test("headers that do not come fail after the headers timeout; a body that drips, at the deadline")
    func timeouts() async throws {
        let silent = try MisbehavingServer(behaviour: MisbehavingServer.silent())
        defer { silent.stop() }
        let patient = NetworkLimits(headersTimeout: .milliseconds(400), deadline: .seconds(20), maximumBodySize: 0)
        await #expect(throws: FetchFailure.headersTimedOut(.milliseconds(400))) { try await fetch(silent, limits: patient).get() }

        let drip = try MisbehavingServer(behaviour: MisbehavingServer.drip(head: MisbehavingServer.head(), interval: 0.1))
        defer { drip.stop() }
        let short = NetworkLimits(headersTimeout: .seconds(5), deadline: .seconds(1), maximumBodySize: 64 << 10)
        await #expect(throws: FetchFailure.deadlinePassed(.seconds(1))) { try await fetch(drip, limits: short).get() }
    }

    @Test("without readingBody it returns at the headers and reads none of an endless body")
    func statusOnly() async throws {
        let server = try MisbehavingServer(behaviour: MisbehavingServer.endlessBody(head: MisbehavingServer.head(status: 204)))
        defer { server.stop() }
        let response = try await fetch(server, readingBody: false).get()
        #expect(response.status == 204 && response.body.isEmpty)
        #expect(server.bytesSent < 16 << 20)  // the sockets' buffers at most
    }

    @Test("a response's headers are found whatever the case of their names")
    func headers() async throws {
        let server = try MisbehavingServer { client in
            client.send(MisbehavingServer.head(["Content-Length: 0", "Retry-After: 5", "X-Twice: a", "x-twice: b"]))
        }
        defer { server.stop() }
        let response = try await fetch(server).get()
        #expect(response.header("retry-after") == "5" && response.header("RETRY-AFTER") == "5")
        #expect(response.header("Missing") == nil)
        #expect(response.header("x-twice")?.split(separator: ",").count == 2)
    }

    @Test("libcurl is opened from its file when needed; a file that cannot be opened is a failure that names it and the package to install")
    func libcurlOpened() throws {
        #expect(throws: Never.self) { try Libcurl.shared.get() }
        let missing = Libcurl.open("libstorysite-missing.so.0")
        guard case .failure(let failure) = missing, case .unavailable(let reason) = failure else {
            Issue.record("a missing library opened: \(missing)")
            return
        }
        #expect(reason.contains("libstorysite-missing.so.0"))
        #expect(failure.description.hasSuffix("install the package libcurl4") && !failure.mayPass)
        let noCurl = Libcurl.open("libc.so.6")
        guard case .failure(.unavailable(let lacking)) = noCurl else {
            Issue.record("a library without libcurl's functions opened: \(noCurl)")
            return
        }
        #expect(lacking.hasPrefix("libc.so.6 has no curl_"))
    }

    @Test("a retry is allowed only while the deadline leaves it a headers timeout")
    func retryWithinDeadline() {
        let deadline = RequestDeadline(NetworkLimits(headersTimeout: .seconds(1), deadline: .seconds(10), maximumBodySize: 0))
        #expect(deadline.allowsRetry(after: .seconds(5)))
        #expect(!deadline.allowsRetry(after: .seconds(9.5)))
    }
}
