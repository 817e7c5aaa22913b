import Foundation

/// A value shared between threads in a test, every access under a lock. A pthread mutex
/// (NSLock), so that `swift test --sanitize=thread` sees the accesses ordered: it does not see
/// the futex inside Synchronization's `Mutex`, and reports races that are not there.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// `body`'s result, run with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
