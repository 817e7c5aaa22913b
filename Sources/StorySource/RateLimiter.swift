/// Keeps requests within the Content Delivery API's documented rate limits: a single story or
/// a listing of at most 25 entries 50 per second, at most 50 entries 15, at most 75 10, at most
/// 100 6 (and larger link listings 6).
///
/// The limits are one budget per second, each request costing its share (1/50 for small
/// ones). A request holds its share from before it is sent until a second after its answer
/// arrived: the server counted it at some moment in between, so however the network delays
/// requests, no second as the server sees it holds more than the budget.
actor RateLimiter {
    /// The budget of one window in units: 150 = 50 × 3 = 15 × 10 = 10 × 15 = 6 × 25.
    private static let capacity = 150
    private let window: Duration
    private var used = 0
    private var waiting: [(units: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(window: Duration = .milliseconds(1010)) {
        self.window = window
    }

    /// The share of the budget a request for `entries` entries takes.
    static func units(entries: Int) -> Int {
        switch entries {
        case ...25: return 3
        case ...50: return 10
        case ...75: return 15
        default: return 25
        }
    }

    /// Waits until a request of `units` may be sent, in arrival order.
    func acquire(_ units: Int) async {
        if waiting.isEmpty, used + units <= Self.capacity {
            used += units
            return
        }
        await withCheckedContinuation { waiting.append((units, $0)) }
    }

    /// Gives back the share of a request whose answer has arrived (or failed), one window later.
    nonisolated func release(_ units: Int) {
        let window = window
        Task {
            try? await Task.sleep(for: window)
            await self.giveBack(units)
        }
    }

    private func giveBack(_ units: Int) {
        used -= units
        while let first = waiting.first, used + first.units <= Self.capacity {
            waiting.removeFirst()
            used += first.units
            first.continuation.resume()
        }
    }
}
