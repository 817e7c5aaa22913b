import Foundation

/// Runs work on a new thread with a stack of a given size while the calling thread waits: deep
/// recursion (a template nesting thousands of sections) continues there instead of overflowing
/// the caller's stack, which may be a small one.
enum FreshStack {
    /// Runs `work` on a thread whose stack holds `bytes`, and returns (or throws) what it did.
    static func run(bytes: Int, _ work: () throws -> Void) throws {
        try withoutActuallyEscaping(work) { work in
            let call = Call(work: work)
            let thread = Thread { call.run() }
            thread.stackSize = bytes
            thread.start()
            call.done.wait()
            if let failure = call.failure { throw failure }
        }
    }

    /// The work and its outcome, handed between the two threads.
    private final class Call: @unchecked Sendable {
        // Safe to share: the caller reads `failure` only after `done` is signalled, and the
        // work's own captures are only used while the caller waits.
        /// Dropped once done, so that it does not outlive the call (it may not escape).
        private var work: (() throws -> Void)?
        let done = DispatchSemaphore(value: 0)
        var failure: (any Error)?

        init(work: @escaping () throws -> Void) {
            self.work = work
        }

        func run() {
            do { try work?() } catch { failure = error }
            work = nil
            done.signal()
        }
    }
}
