/// A list of positions for each of a graph's stories, all held in two flat arrays (compressed
/// sparse rows) rather than an array of its own for each story: one graph of 100,000 stories
/// has four such lists per story, which as arrays were 400,000 allocations to make and free.
struct PositionLists: Sendable {
    /// Where each list starts in ``positions``; the last element is where the last list ends.
    private let starts: [Int]
    private let positions: [Int]

    /// Gathers the pairs of a story and a position the lists are made of.
    struct Builder {
        private var stories: [Int] = []
        private var positions: [Int] = []

        /// A builder with room for `capacity` positions, so that appending them copies nothing.
        init(capacity: Int = 0) {
            stories.reserveCapacity(capacity)
            positions.reserveCapacity(capacity)
        }

        /// Adds `position` to the end of the list of the story at `story`.
        mutating func append(_ position: Int, to story: Int) {
            stories.append(story)
            positions.append(position)
        }

        /// The lists of `count` stories, each holding its positions in the order appended.
        func lists(count: Int) -> PositionLists {
            PositionLists(count: count, stories: stories, positions: positions)
        }
    }

    /// The lists of `count` stories, made from pairs of a story and a position given as two
    /// arrays of the same length: each story's list holds its positions in the order given.
    private init(count: Int, stories: [Int], positions given: [Int]) {
        // Counted and placed through buffers: indexing the arrays themselves checked that each
        // was unique at every step (330,000 checks for the lists of a graph of 10,000 stories).
        var starts = [Int](repeating: 0, count: count + 1)
        starts.withUnsafeMutableBufferPointer { starts in
            for story in stories {
                // Buffers do not check their bounds in a release build: a story out of range traps here.
                precondition(story >= 0 && story < count, "story \(story) of \(count)")
                starts[story + 1] += 1
            }
            for story in 0..<count { starts[story + 1] += starts[story] }
        }
        var next = starts
        let positions = [Int](unsafeUninitializedCapacity: given.count) { positions, initialized in
            next.withUnsafeMutableBufferPointer { next in
                for (story, position) in zip(stories, given) {
                    positions.initializeElement(at: next[story], to: position)
                    next[story] += 1
                }
            }
            initialized = given.count
        }
        self.starts = starts
        self.positions = positions
    }

    private init(starts: [Int], positions: [Int]) {
        self.starts = starts
        self.positions = positions
    }

    /// How many stories there are lists for.
    var count: Int { starts.count - 1 }

    /// The positions of the story at `story`, in order.
    subscript(story: Int) -> ArraySlice<Int> {
        positions[starts[story]..<starts[story + 1]]
    }

    /// These lists with each one sorted and every position in it once.
    func sortedDistinct() -> PositionLists {
        var starts = [0]
        starts.reserveCapacity(self.starts.count)
        var distinct: [Int] = []
        distinct.reserveCapacity(positions.count)
        for story in 0..<count {
            let list = self[story]
            for position in list.count > 1 ? list.sorted()[...] : list where distinct.count == starts.last! || distinct.last != position {
                distinct.append(position)
            }
            starts.append(distinct.count)
        }
        return PositionLists(starts: starts, positions: distinct)
    }
}
