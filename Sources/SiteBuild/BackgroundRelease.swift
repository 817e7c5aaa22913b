import Dispatch

/// Frees large values off the calling thread. A build's site (every story's JSON tree, the link
/// graph, the pages) takes a tenth of a second or more to free, one object at a time; handed
/// here, it is freed while the command goes on, or not at all when the process exits first,
/// since the kernel takes back a process's memory whole.
enum BackgroundRelease {
    private final class Box<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: consuming Value) { self.value = value }
    }

    /// Takes over `value` (the caller's copy must be its last) and frees it on another thread.
    static func release<Value>(_ value: consuming Value) {
        // The unmanaged reference is the only one, so the dispatched release is the last.
        let handle = Unmanaged.passRetained(Box(value))
        DispatchQueue.global(qos: .utility).async { handle.release() }
    }

    /// Takes over `value` and never frees it: for a process about to exit, where freeing it
    /// (a twentieth of a one-story rebuild's instructions at 10,000 stories) would only take a
    /// core from the work still to do.
    static func abandon<Value>(_ value: consuming Value) {
        _ = Unmanaged.passRetained(Box(value))
    }
}
