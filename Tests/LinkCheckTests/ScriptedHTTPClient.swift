import Foundation
import LinkCheck

/// An HTTP client that answers from a script (per `METHOD url`, one answer per call, the last
/// one repeating; 200 when unscripted), records every request, and measures how many requests
/// per host were in flight at once.
actor ScriptedHTTPClient: HTTPClient {
    private var script: [String: [Result<Int, HTTPClientError>]]
    private let latency: Duration
    private(set) var requests: [String] = []
    private var inFlight: [String: Int] = [:]
    private(set) var mostInFlightPerHost = 0

    private let resolvesNames: Bool

    /// `resolvesNames: false` plays a machine without name resolution.
    init(_ script: [String: [Result<Int, HTTPClientError>]] = [:], latency: Duration = .zero, resolvesNames: Bool = true) {
        self.script = script
        self.latency = latency
        self.resolvesNames = resolvesNames
    }

    func resolvesHostNames(probing hosts: [String]) async -> Bool {
        resolvesNames
    }

    func status(for request: HTTPRequest) async throws(HTTPClientError) -> Int {
        let key = "\(request.method.rawValue) \(request.url.absoluteString)"
        requests.append(key)
        let host = request.url.host ?? ""
        inFlight[host, default: 0] += 1
        mostInFlightPerHost = max(mostInFlightPerHost, inFlight[host]!)
        if latency > .zero { try? await Task.sleep(for: latency) }
        inFlight[host]! -= 1
        guard var answers = script[key], let answer = answers.first else { return 200 }
        if answers.count > 1 {
            answers.removeFirst()
            script[key] = answers
        }
        return try answer.get()
    }
}
