/// Why a request to the Content Delivery API failed: the request (its URL with the token
/// shown as `***`) and what happened.
public struct StoryblokError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// 401 or 403: the token is wrong, or a public token was used for drafts.
        case tokenRejected(status: Int)
        /// An HTTP status that retrying cannot fix (400, 405, …).
        case unexpectedStatus(Int)
        /// The answer is not the JSON the API sends (what is wrong).
        case malformedResponse(String)
        /// Every attempt failed with something worth retrying; the last failure.
        case gaveUp(attempts: Int, lastFailure: String)
        /// The request failed in a way retrying cannot fix (what happened).
        case failed(String)
    }

    /// `GET https://api.storyblok.com/v2/cdn/stories?by_uuids=…&token=***`.
    public var request: String
    public var problem: Problem

    public init(request: String, problem: Problem) {
        self.request = request
        self.problem = problem
    }

    /// Whether the API could not be reached or kept failing (network errors, timeouts, 429 and
    /// 5xx after every retry), as opposed to an answer that says the request is wrong. A build
    /// may fall back to a pulled folder in the first case only.
    public var isUnreachable: Bool {
        if case .gaveUp = problem { return true }
        return false
    }

    public var description: String {
        switch problem {
        case .tokenRejected(let status):
            return "\(request): the access token was rejected (is it a preview token for draft builds?) (HTTP \(status))"
        case .unexpectedStatus(let status):
            return "\(request): the API answered HTTP \(status)"
        case .malformedResponse(let what):
            return "\(request): the API's answer is malformed: \(what)"
        case .gaveUp(let attempts, let lastFailure):
            return "\(request): failed \(attempts) time\(attempts == 1 ? "" : "s"), last: \(lastFailure)"
        case .failed(let what):
            return "\(request): \(what)"
        }
    }
}
