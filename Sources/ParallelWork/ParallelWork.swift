import Dispatch
import Synchronization

/// CPU-bound work over many items on a bounded number of threads (`--jobs`): parsing story
/// files, fingerprinting pages, writing output files.
///
/// Items are claimed a small batch at a time from a shared counter, so a thread that drew cheap
/// items takes more; results come back in item order whatever order they were computed in.
/// The caller's thread works too, and waits until every item is done.
public enum ParallelWork {
    /// `transform` of every index in `0..<count`, in index order, on at most `jobs` threads.
    public static func map<Result>(count: Int, jobs: Int, _ transform: (Int) -> Result) -> [Result] {
        guard count > 0 else { return [] }
        let workers = max(1, min(jobs, count))
        guard workers > 1 else { return (0..<count).map(transform) }
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each index is claimed by exactly one worker, which initializes only its own slot.
            nonisolated(unsafe) let slots = buffer
            let next = Atomic<Int>(0)
            let batch = max(1, min(64, count / (workers * 16)))
            withoutActuallyEscaping(transform) { transform in
                nonisolated(unsafe) let transform = transform
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    while true {
                        let start = next.add(batch, ordering: .relaxed).oldValue
                        guard start < count else { return }
                        for index in start..<min(start + batch, count) {
                            (slots.baseAddress! + index).initialize(to: transform(index))
                        }
                    }
                }
            }
            initialized = count
        }
    }

    /// `first()` and `second()`, run at once on two threads (one of them the caller's) when
    /// `jobs` allows more than one; the caller waits for both. `second` runs on a queue of its
    /// own rather than in a `concurrentPerform`: parallel work nested in one (a folder listing
    /// in `second`, say) is held to the calling thread once the outer one fills the cores, and
    /// stays there after the other half is done.
    public static func both<First, Second>(jobs: Int, _ first: () -> First, _ second: () -> Second) -> (First, Second) {
        guard jobs > 1 else { return (first(), second()) }
        var secondResult: Second?
        let done = DispatchSemaphore(value: 0)
        let firstResult = withoutActuallyEscaping(second) { second in
            withUnsafePointer(to: second) { work in
                withUnsafeMutablePointer(to: &secondResult) { slot in
                    // The queued block holds pointers alone, not the closure: a block the queue
                    // has not released yet when `done` is signalled would count as an escape.
                    // `second` writes only its slot, which is read after `done` is signalled.
                    nonisolated(unsafe) let (work, slot) = (work, slot)
                    DispatchQueue.global(qos: .userInitiated).async {
                        slot.pointee = work.pointee()
                        done.signal()
                    }
                    let result = first()
                    done.wait()
                    return result
                }
            }
        }
        return (firstResult, secondResult!)
    }

    /// Runs `body` for every index in `0..<count`, on at most `jobs` threads.
    public static func forEach(count: Int, jobs: Int, _ body: (Int) -> Void) {
        _ = map(count: count, jobs: jobs, body)
    }
}
