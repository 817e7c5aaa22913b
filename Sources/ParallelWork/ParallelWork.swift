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
    /// `jobs` allows more than one; the caller waits for both.
    public static func both<First, Second>(jobs: Int, _ first: () -> First, _ second: () -> Second) -> (First, Second) {
        var firstResult: First?
        var secondResult: Second?
        withUnsafeMutablePointer(to: &firstResult) { firstSlot in
            withUnsafeMutablePointer(to: &secondResult) { secondSlot in
                // Each of the two items writes only its own slot.
                nonisolated(unsafe) let slots = (firstSlot, secondSlot)
                forEach(count: 2, jobs: jobs) { index in
                    if index == 0 { slots.0.pointee = first() } else { slots.1.pointee = second() }
                }
            }
        }
        return (firstResult!, secondResult!)
    }

    /// Runs `body` for every index in `0..<count`, on at most `jobs` threads.
    public static func forEach(count: Int, jobs: Int, _ body: (Int) -> Void) {
        _ = map(count: count, jobs: jobs, body)
    }
}
