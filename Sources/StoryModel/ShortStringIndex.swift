/// Where the short strings a tape being built holds already are, by their bytes: a key or a
/// short value that repeats in a document (`type`, `text`, `content`, `paragraph`, `_self`)
/// then names the bytes it had first instead of having them copied again. A story's keys are
/// 15% of its tape's string bytes, three quarters of them repeats.
///
/// A small open-addressing table made for one document: each slot holds the string's offset
/// and length with part of its hash, so that bytes are compared only where those agree. Once
/// half full it takes no more strings (a document of many distinct short strings gains little).
struct ShortStringIndex {
    /// The longest string shared: keys and the values of fields that name a kind of thing.
    static let longest = 32
    private static let slotCount = 256

    /// Empty (0), or a string's offset plus one (low 32 bits), its length (next 8) and the high
    /// 24 bits of its hash.
    private var slots: [UInt64] = []
    private var taken = 0

    /// The offset in `strings` of a string already added with the bytes `bytes`, whose hash is
    /// `hash` (``StringTableIndex/hash(_:)``); nil when there is none.
    func offset(of bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, in strings: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty else { return nil }
        let wanted = Self.lengthAndTag(count: bytes.count, hash: hash)
        var slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        while slots[slot] != 0 {
            if slots[slot] >> 32 == wanted {
                let offset = Int(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1
                if JSONTape.Reader.equal(UnsafeBufferPointer(rebasing: strings[offset..<offset + bytes.count]), bytes) { return offset }
            }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        return nil
    }

    /// Records that the string of `count` bytes with `hash` is at `offset`, unless the table is
    /// half full already or the offset does not fit a slot.
    mutating func add(offset: Int, count: Int, hash: UInt64) {
        guard taken < Self.slotCount / 2, offset < Int(UInt32.max) else { return }
        if slots.isEmpty { slots = [UInt64](repeating: 0, count: Self.slotCount) }
        var slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        while slots[slot] != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
        slots[slot] = Self.lengthAndTag(count: count, hash: hash) << 32 | UInt64(offset + 1)
        taken += 1
    }

    private static func lengthAndTag(count: Int, hash: UInt64) -> UInt64 {
        UInt64(count) | (hash >> 40) << 8
    }
}
