import Foundation

/// The documented Content Delivery API limits as a sliding one-second window: a single story
/// or a listing of at most 25 costs 1/50 of the window, at most 50 costs 1/15, at most 75
/// 1/10, more 1/6. A request that would push the window's cost over 1 is refused (429).
struct RateWindow {
    private var accepted: [(time: ContinuousClock.Instant, cost: Int)] = []
    private var head = 0
    /// The cost of the requests in the window, in 1/150 of the window (150 = 50 × 3 = 15 × 10 =
    /// 10 × 15 = 6 × 25), so that sums are exact.
    private var total = 0

    /// Requests per second allowed for a response of `perPage` entries (1 for a single story).
    static func limit(perPage: Int) -> Int {
        switch perPage {
        case ...25: return 50
        case ...50: return 15
        case ...75: return 10
        default: return 6
        }
    }

    /// Whether a request of `perPage` entries arriving `now` is within the limits; if so it is
    /// counted.
    mutating func admit(perPage: Int, now: ContinuousClock.Instant) -> Bool {
        while head < accepted.count, now - accepted[head].time >= .seconds(1) {
            total -= accepted[head].cost
            head += 1
        }
        if head > 1024 {
            accepted.removeFirst(head)
            head = 0
        }
        let cost = 150 / Self.limit(perPage: perPage)
        guard total + cost <= 150 else { return false }
        accepted.append((now, cost))
        total += cost
        return true
    }
}
