import Synchronization
import Testing
import ParallelWork
import TestSupport

@Suite("ParallelWork")
struct ParallelWorkTests {
    @Test("map returns every index's result in index order, for any count and number of jobs")
    func mapKeepsOrder() {
        for count in [0, 1, 2, 7, 64, 1000, 4099] {
            for jobs in [1, 2, 3, 8, 64] {
                let results = ParallelWork.map(count: count, jobs: jobs) { index in "item \(index)" }
                #expect(results == (0..<count).map { "item \($0)" }, "count \(count), jobs \(jobs)")
            }
        }
    }

    @Test("both runs two pieces of work at once and returns each one's result")
    func bothAtOnce() {
        // Each waits (5 s at most) for the other to have started: run one after the other, the
        // first would wait in vain.
        let started = Atomic<Int>(0)
        func work(_ name: String) -> (name: String, sawTheOther: Bool) {
            started.add(1, ordering: .relaxed)
            let deadline = ContinuousClock.now + .seconds(5)
            while started.load(ordering: .relaxed) < 2 {
                if ContinuousClock.now > deadline { return (name, false) }
            }
            return (name, true)
        }
        let (first, second) = ParallelWork.both(jobs: 2, { work("first") }, { work("second") })
        #expect(first.name == "first" && second.name == "second")
        #expect(first.sawTheOther && second.sawTheOther)
        let (alone, count) = ParallelWork.both(jobs: 1, { "alone" }, { 7 })
        #expect(alone == "alone" && count == 7)
    }

    @Test("both may be called again and again, its halves done before it returns")
    func bothManyTimes() {
        var sum = 0
        for number in 0..<20_000 {
            let (first, second) = ParallelWork.both(jobs: 2, { number }, { number * 2 })
            sum += second - first
        }
        #expect(sum == (0..<20_000).reduce(0, +))
    }

    @Test("work nested in one half of both still runs on two threads once the other half is done")
    func nestedInBoth() {
        // Each of the nested items waits (5 s at most) for the other to have started: held to
        // one thread, the first would wait in vain.
        let started = Atomic<Int>(0)
        let (_, sawTheOther) = ParallelWork.both(jobs: 2, { "done at once" }, {
            ParallelWork.map(count: 2, jobs: 2) { _ in
                started.add(1, ordering: .relaxed)
                let deadline = ContinuousClock.now + .seconds(5)
                while started.load(ordering: .relaxed) < 2 {
                    if ContinuousClock.now > deadline { return false }
                }
                return true
            }
        })
        #expect(sawTheOther == [true, true])
    }

    @Test("every index is visited exactly once, even when items cost very different amounts")
    func eachIndexOnce() {
        let count = 5000
        let visits = Locked([Int](repeating: 0, count: count))
        ParallelWork.forEach(count: count, jobs: 4) { index in
            if index % 97 == 0 {
                var sum = 0
                for value in 0..<20_000 { sum &+= value ^ index }
                #expect(sum != 1)
            }
            visits.withLock { $0[index] += 1 }
        }
        #expect(visits.withLock { $0 } == [Int](repeating: 1, count: count))
    }

    @Test("with one job, no two items run at once (the machine has more cores than that)")
    func boundedConcurrency() {
        let running = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        ParallelWork.forEach(count: 400, jobs: 1) { _ in
            let now = running.add(1, ordering: .relaxed).newValue
            var seen = peak.load(ordering: .relaxed)
            while now > seen, !peak.compareExchange(expected: seen, desired: now, ordering: .relaxed).exchanged {
                seen = peak.load(ordering: .relaxed)
            }
            var sum = 0
            for value in 0..<2_000 { sum &+= value }
            #expect(sum > 0)
            running.subtract(1, ordering: .relaxed)
        }
        #expect(peak.load(ordering: .relaxed) == 1)
    }
}
