import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPServer

extension HTTPServerTests {
    @Suite("Request clients")
    struct RequestClientTests {
        @Test("a POST body reaches the handler whole, and a loopback client is known as one")
        func postBody() async throws {
            let seen = Recorder<HTTPRequest?>(nil)
            let body = Array((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
            try await withServer({ request in
                seen.update { $0 = request }
                return HTTPResponse(status: 202, text: "got \(request.body.count)")
            }) { _, port in
                var request = URLRequest(url: url(port, "/hook"))
                request.httpMethod = "POST"
                request.httpBody = Data(body)
                let (data, response) = try await makeSession().data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 202)
                #expect(String(decoding: data, as: UTF8.self) == "got 200000")
            }
            let request = try #require(seen.value)
            #expect(request.method == "POST")
            #expect(request.body == body)
            #expect(request.isFromLoopback)
        }
    }
}
