import Foundation

/// The strings a ``ByteRecordWriter`` added to its table, found by their UTF-8 bytes: an
/// open-addressing hash table whose slots hold part of each string's hash beside its number,
/// so that a lookup compares bytes only where the hashes agree. (A cache's table names
/// thousands of UUIDs of one length, which a `[String: Int]` compares byte by byte at every
/// probe, each comparison a cache miss once the table is large.)
///
/// Strings are the same here when their bytes are: one is read back from a table as it was
/// written, where Swift's `==` takes canonically equivalent strings (a composed and a
/// decomposed `é`) as one.
struct StringTableIndex {
    /// Empty (0), or the high 32 bits of a string's hash and its number plus one.
    private var slots = [UInt64](repeating: 0, count: 64)
    /// The bytes of every string added, one after the other; string `n` ends at `ends[n]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Each string's hash, to place it again when the slots grow.
    private var hashes: [UInt64] = []

    /// How many strings were added: each has a number below this, in the order added.
    var count: Int { ends.count }

    /// The number of `string`, added with the next number when it is not here yet.
    mutating func number(of string: String) -> (number: Int, isNew: Bool) {
        var string = string  // withUTF8 may make the storage contiguous, so it needs a var
        return string.withUTF8 { number(of: $0) }
    }

    private mutating func number(of utf8: UnsafeBufferPointer<UInt8>) -> (number: Int, isNew: Bool) {
        let hash = Self.hash(utf8)
        let tag = hash >> 32
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let number = Int(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1
            if slots[slot] >> 32 == tag && holds(utf8, at: number) { return (number, false) }
            slot = (slot + 1) & mask
        }
        let number = count
        slots[slot] = tag << 32 | UInt64(number + 1)
        bytes.append(contentsOf: utf8)
        ends.append(bytes.count)
        hashes.append(hash)
        if count * 2 > slots.count { grow() }
        return (number, true)
    }

    /// Whether string `number` has exactly the bytes `utf8`.
    private func holds(_ utf8: UnsafeBufferPointer<UInt8>, at number: Int) -> Bool {
        let start = number == 0 ? 0 : ends[number - 1]
        guard ends[number] - start == utf8.count else { return false }
        return bytes.withUnsafeBufferPointer { stored in
            utf8.isEmpty || memcmp(stored.baseAddress! + start, utf8.baseAddress!, utf8.count) == 0
        }
    }

    /// Twice the slots, every string placed again: the table stays at most half full, so that
    /// runs of taken slots stay short.
    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = (hash >> 32) << 32 | UInt64(number + 1)
        }
    }

    /// A fast hash of `utf8`, eight bytes at a time, its bits mixed at the end (MurmurHash3's
    /// finaliser) so that both the low bits (the slot) and the high bits (the tag) vary. The
    /// last bytes are read in at most three loads, which may overlap bytes read before: the
    /// same bytes always give the same hash, and the length is part of it. Not meant to
    /// withstand chosen inputs: a table holds the build's own strings.
    static func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        let count = utf8.count
        var hash = UInt64(truncatingIfNeeded: count) &* multiplier
        if let base = utf8.baseAddress {
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 <= count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
                hash ^= hash >> 29
                offset += 8
            }
            if offset < count {
                let tail: UInt64
                if count >= 8 {
                    tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                } else if count >= 4 {
                    tail = UInt64(raw.loadUnaligned(as: UInt32.self)) | UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) << 32
                } else {
                    tail = UInt64(base[0]) | UInt64(base[count / 2]) << 8 | UInt64(base[count - 1]) << 16
                }
                hash = (hash ^ tail) &* multiplier
            }
        }
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash = hash &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return hash
    }
}
