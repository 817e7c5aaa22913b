import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for Ctrl-C (SIGINT) or SIGTERM, so `serve` can stop its server and watcher cleanly.
enum ServeSignals {
    /// Returns once either signal arrives; their default actions are restored afterwards.
    static func waitForStop() async {
        let signals = [SIGINT, SIGTERM]
        for number in signals { signal(number, SIG_IGN) }
        let sources = signals.map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            for source in sources {
                source.setEventHandler { once.resume() }
                source.resume()
            }
        }
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}

/// Resumes a continuation the first time only, whichever signal comes first.
private final class ResumeOnce: @unchecked Sendable {
    private var continuation: CheckedContinuation<Void, Never>?
    private let lock = NSLock()

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func resume() {
        lock.withLock {
            defer { continuation = nil }
            continuation?.resume()
        }
    }
}
