/// Positions (in a list of stories) by story UUID: what the crawl, the link graph and the story
/// index look every link's target up in.
///
/// A UUID in Storyblok's form (see ``StoryKey``) is held in an open-addressing table whose slot
/// keeps its two numbers beside the position, so that a lookup reads one slot, mostly in one
/// cache line, and hashes with a multiplication instead of SipHash: the digits of a UUID are
/// random already. (A `[StoryKey: Int]` keeps keys and values apart behind an occupancy bitmap
/// and hashes each key with SipHash; at 100,000 stories its lookups were 4% of a build's
/// processor time.) Any other identifier is kept in a dictionary beside.
public struct StoryPositions: Sendable {
    /// A UUID's two numbers and its position; a negative position marks an empty slot.
    private struct Slot {
        var high: UInt64
        var low: UInt64
        var position: Int

        static let empty = Slot(high: 0, low: 0, position: -1)
    }

    /// A power of two, at least twice the UUIDs held, so that probes stay short.
    private var slots: [Slot]
    private var packedCount = 0
    private var others: [String: Int] = [:]

    /// Room for `minimumCapacity` stories before the table grows.
    public init(minimumCapacity: Int = 0) {
        slots = Array(repeating: .empty, count: Self.slotCount(holding: minimumCapacity))
    }

    /// How many stories have a position.
    public var count: Int { packedCount + others.count }

    /// The position of the story with `key`; nil when it has none. Setting gives it one (or
    /// another); a position is never removed.
    public subscript(key: StoryKey) -> Int? {
        get {
            if let other = key.otherIdentifier { return others[other] }
            let (high, low) = key.packedNumbers
            let position = slots[slot(high, low)].position
            return position >= 0 ? position : nil
        }
        set {
            guard let position = newValue else { preconditionFailure("StoryPositions never removes a position") }
            precondition(position >= 0, "a position is never negative")
            if let other = key.otherIdentifier {
                others[other] = position
                return
            }
            let (high, low) = key.packedNumbers
            let slot = slot(high, low)
            guard slots[slot].position < 0 else {
                slots[slot].position = position
                return
            }
            slots[slot] = Slot(high: high, low: low, position: position)
            packedCount += 1
            if packedCount * 2 > slots.count { grow(to: slots.count * 2) }
        }
    }

    /// The slot holding the UUID of these numbers, or the empty one where it would go.
    private func slot(_ high: UInt64, _ low: UInt64) -> Int {
        var slot = slotIndex(high, low)
        while slots[slot].position >= 0 && !(slots[slot].high == high && slots[slot].low == low) {
            slot = (slot + 1) & (slots.count - 1)
        }
        return slot
    }

    /// Makes room for `count` stories in all.
    public mutating func reserveCapacity(_ count: Int) {
        let needed = Self.slotCount(holding: count)
        if needed > slots.count { grow(to: needed) }
    }

    private func slotIndex(_ high: UInt64, _ low: UInt64) -> Int {
        // The UUID's bits are mixed so that UUIDs differing in a few digits (made in a test, or
        // one after the other) still spread over the slots.
        var hash = high ^ (low &* 0x9E37_79B9_7F4A_7C15)
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash) & (slots.count - 1)
    }

    /// Every UUID placed again in `count` slots.
    private mutating func grow(to count: Int) {
        let old = slots
        slots = Array(repeating: .empty, count: count)
        for slot in old where slot.position >= 0 {
            var index = slotIndex(slot.high, slot.low)
            while slots[index].position >= 0 { index = (index + 1) & (count - 1) }
            slots[index] = slot
        }
    }

    /// The smallest power of two (at least 16) that holds `count` UUIDs at most half full.
    private static func slotCount(holding count: Int) -> Int {
        var slots = 16
        while slots < 2 * count { slots *= 2 }
        return slots
    }
}
