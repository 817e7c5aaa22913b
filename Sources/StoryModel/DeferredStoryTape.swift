import Foundation

/// A deferred story's object on the tape of its file, read only when first asked for, at most
/// once, whichever thread asks (see ``Story/init(head:digest:translationDigests:whole:)``): its
/// content is then read in place, as a story loaded from its file reads it.
final class DeferredStoryTape: @unchecked Sendable {
    /// The tape read, with the index of the story object in it and of its root block.
    struct Found {
        let tape: JSONTape
        let object: Int
        let content: Int
    }

    private let load: @Sendable () -> (tape: JSONTape, object: Int)?
    // Safe to share: `loaded` is only touched holding the lock (a pthread mutex, which the
    // thread sanitizer sees, unlike Synchronization's Mutex).
    private let lock = NSLock()
    private var loaded: Found??

    init(load: @escaping @Sendable () -> (tape: JSONTape, object: Int)?) {
        self.load = load
    }

    /// What `load` read; nil when it read nothing, or a story object without a root block.
    var found: Found? {
        lock.withLock {
            if let loaded { return loaded }
            let read = load().flatMap { tape, object in
                tape.withReader { reader -> Found? in
                    guard reader.kind(at: object) == .object, let content = reader.value(forKey: "content", inObject: object),
                          reader.kind(at: content) == .object else { return nil }
                    return Found(tape: tape, object: object, content: content)
                }
            }
            loaded = .some(read)
            return read
        }
    }
}
