import Foundation
import Synchronization

/// What a deferred story reads only when first asked for, at most once, whichever thread asks
/// (see ``Story/init(head:digest:translationDigests:parkingIn:whole:)``): its head, when it was
/// given as a kept file holds it (``KeptHead``), and its object on the tape of its file, whose
/// content is then read in place, as a story loaded from its file reads it. With a store, the
/// tape read is written there and read back each time it is asked for, as a parked story's is
/// (``Story/storingContent(in:)``): a rebuild that shows every story's content (after a
/// template edit) then holds no more of it at once than a full build does.
final class DeferredStoryTape: @unchecked Sendable {
    /// A story's head as it was given: an object, or where a kept file holds it.
    enum Head {
        case object(JSONObject)
        case kept(KeptHead.Encoding)
    }

    /// The tape read, with the index of the story object in it and of its root block.
    struct Found {
        let tape: JSONTape
        let object: Int
        let content: Int
    }

    /// What the load gave: the tape in memory or in the store, or nothing.
    private enum Loaded {
        case kept(Found)
        case parked(TapeStore.Location, object: Int, content: Int)
        case missing
    }

    private let load: @Sendable () -> (tape: JSONTape, object: Int)?
    /// Where the tape read waits, when not in memory.
    let store: TapeStore?
    /// Where a head given as a kept file holds it is, until it is read.
    private let keptHead: KeptHead.Encoding?
    // Safe to share: `loaded` is only touched holding the lock (a pthread mutex, which the
    // thread sanitizer sees, unlike Synchronization's Mutex), and `readHead` is written once,
    // holding it, before `isHeadRead` says so: read after that, it never changes.
    private let lock = NSLock()
    private var loaded: Loaded?
    private var readHead: JSONObject?
    private let isHeadRead: Atomic<Bool>

    init(head: Head, store: TapeStore? = nil, load: @escaping @Sendable () -> (tape: JSONTape, object: Int)?) {
        switch head {
        case .object(let object):
            readHead = object
            keptHead = nil
            isHeadRead = Atomic(true)
        case .kept(let encoding):
            keptHead = encoding
            isHeadRead = Atomic(false)
        }
        self.store = store
        self.load = load
    }

    /// The story's head: every key of its object but `content`. Read without the lock once
    /// read: the pages a rebuild renders read the fields of the stories they show (dates,
    /// names) from both render threads.
    var head: JSONObject {
        if isHeadRead.load(ordering: .acquiring) { return readHead! }
        return lock.withLock {
            if let readHead { return readHead }
            let head = keptHead!.object
            readHead = head
            isHeadRead.store(true, ordering: .releasing)
            return head
        }
    }

    /// What `load` read; nil when it read nothing, or a story object without a root block.
    var found: Found? {
        let loaded = lock.withLock {
            if let loaded = self.loaded { return loaded }
            let read = load().flatMap { tape, object in
                tape.withReader { reader -> Found? in
                    guard reader.kind(at: object) == .object, let content = reader.value(forKey: "content", inObject: object),
                          reader.kind(at: content) == .object else { return nil }
                    return Found(tape: tape, object: object, content: content)
                }
            }
            let kept: Loaded = read.map { found in
                store?.keep(found.tape).map { .parked($0, object: found.object, content: found.content) } ?? .kept(found)
            } ?? .missing
            self.loaded = kept
            return kept
        }
        switch loaded {
        case .kept(let found): return found
        case .parked(let location, let object, let content): return Found(tape: store!.tape(at: location), object: object, content: content)
        case .missing: return nil
        }
    }
}
