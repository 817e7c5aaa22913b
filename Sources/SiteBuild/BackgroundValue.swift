import Dispatch

/// A value made on a thread of its own from the moment it is created, for a build to go on
/// meanwhile with work that does not need it: ``value`` waits until it is made.
final class BackgroundValue<Value>: @unchecked Sendable {
    // Safe to share: `made` is written once, before `done` is first signalled, and read only
    // after a wait on it; each wait signals again for the next.
    private let done = DispatchSemaphore(value: 0)
    private var made: Value?

    /// Starts making the value with `make`.
    init(_ make: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            made = make()
            done.signal()
        }
    }

    /// The value, waiting for it to be made.
    var value: Value {
        done.wait()
        defer { done.signal() }
        return made!
    }
}
