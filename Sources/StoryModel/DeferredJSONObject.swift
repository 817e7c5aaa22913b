import Foundation

/// A JSON object read only when first asked for, at most once, whichever thread asks: a
/// deferred story's whole object (see ``Story/init(head:digest:whole:)``).
final class DeferredJSONObject: @unchecked Sendable {
    private let load: @Sendable () -> JSONObject?
    /// What ``object`` is when `load` finds nothing.
    private let fallback: JSONObject
    // Safe to share: `loaded` is only touched holding the lock (a pthread mutex, which the
    // thread sanitizer sees, unlike Synchronization's Mutex).
    private let lock = NSLock()
    private var loaded: JSONObject??

    init(fallback: JSONObject, load: @escaping @Sendable () -> JSONObject?) {
        self.fallback = fallback
        self.load = load
    }

    /// The object `load` returned, or the fallback when it returned nil.
    var object: JSONObject { found ?? fallback }

    /// The object `load` returned; nil when it returned nil.
    var found: JSONObject? {
        lock.withLock {
            if let loaded { return loaded }
            let read = load()
            loaded = .some(read)
            return read
        }
    }
}
