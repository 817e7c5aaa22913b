import Foundation

/// A stable 64-bit hash (unlike `Hasher`, the same across runs and machines), built up from
/// strings and numbers for build cache keys, or over a file's bytes.
///
/// Bytes are mixed eight at a time with the rounds of xxHash64 (its primes and rotations, in one
/// lane), then avalanched: a build hashes every story's JSON and every page it writes, and a
/// byte-at-a-time hash spent a tenth of a second on that. A run of ``longRun`` bytes or more (a
/// story file, a page) is hashed on its own in xxHash64's four lanes, whose rounds do not wait for
/// each other, and its hash mixed in as one word: one lane took 2.7% of a build's processor time.
/// Each string is hashed with its length first, so `("ab", "c")` and `("a", "bc")` differ.
public struct Fingerprint: Sendable {
    private var hash: UInt64 = Self.prime5
    /// Bytes not mixed in yet, the first in the lowest bits.
    private var pending: UInt64 = 0
    private var pendingCount = 0
    private var length: UInt64 = 0

    public init() {}

    public mutating func combine(_ text: String) {
        combine(Int64(text.utf8.count))
        // Read in place where the string is contiguous (native strings are): copying it into a
        // `var` for `withUTF8` costs a retain and a release, and a build hashes millions of strings.
        if text.utf8.withContiguousStorageIfAvailable({ add($0) }) == nil {
            var text = text
            text.withUTF8 { add($0) }
        }
    }

    /// The generic `combine(bytes:)` of bytes in memory, without its detour through
    /// `withContiguousStorageIfAvailable` (a build combines a million of them).
    public mutating func combine(bytes: UnsafeBufferPointer<UInt8>) {
        combine(Int64(bytes.count))
        add(bytes)
    }

    public mutating func combine(bytes: some Collection<UInt8>) {
        combine(Int64(bytes.count))
        if bytes.withContiguousStorageIfAvailable({ add($0) }) == nil {
            Array(bytes).withUnsafeBufferPointer { add($0) }
        }
    }

    public mutating func combine(_ number: Int64) {
        add(word: UInt64(bitPattern: number))
    }

    /// Mixes in another hash's ``value``: a hash made once and combined into many (a story's
    /// identity into every page that shows it) is cheaper kept as a number than as its ``hex``.
    public mutating func combine(value: UInt64) {
        add(word: value)
    }

    /// The hash of a file's contents: its bytes alone, without a length (what the manifest and
    /// the build cache record, so a rebuild can tell whether a file would change).
    public static func contents(_ data: Data) -> String {
        var fingerprint = Fingerprint()
        data.withUnsafeBytes { fingerprint.add($0.assumingMemoryBound(to: UInt8.self)) }
        return fingerprint.hex
    }

    /// The hash as 16 hex digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash as a number: what ``hex`` spells.
    public var value: UInt64 {
        var hash = self.hash ^ length
        // The pending bytes, then the count, so that trailing zero bytes still count.
        hash ^= Self.round(pending ^ UInt64(pendingCount) << 56)
        hash = Self.rotate(hash, 27) &* Self.prime1 &+ Self.prime4
        hash ^= hash >> 33
        hash &*= Self.prime2
        hash ^= hash >> 29
        hash &*= Self.prime3
        hash ^= hash >> 32
        return hash
    }

    // MARK: Mixing

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// How many bytes make a run hashed in four lanes (see ``lanes(of:)``).
    static let longRun = 64

    private mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        if bytes.count >= Self.longRun {
            add(word: Self.lanes(of: bytes))
            length &+= UInt64(bytes.count) &- 8  // the run's bytes, not the word's eight
            return
        }
        var index = 0
        // Top up the pending word first, then mix whole words straight from memory, then keep
        // the rest pending: as if the bytes came one at a time, read a word at a time.
        if pendingCount != 0 {
            index = min(8 - pendingCount, bytes.count)
            addPending(Self.partialWord(base, count: index), count: index)
        }
        let raw = UnsafeRawPointer(base)
        while index + 8 <= bytes.count {
            add(word: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        if index < bytes.count {
            addPending(Self.partialWord(base + index, count: bytes.count - index), count: bytes.count - index)
        }
    }

    /// `count` more bytes (fewer than fill the pending word past eight), the first in the
    /// lowest bits of `word`.
    private mutating func addPending(_ word: UInt64, count: Int) {
        pending |= word << (8 * UInt64(pendingCount))
        pendingCount += count
        length += UInt64(count)
        if pendingCount == 8 {
            mix(pending)
            pending = 0
            pendingCount = 0
        }
    }

    /// The `count` (below eight) bytes at `bytes` as a word, the first in the lowest bits.
    private static func partialWord(_ bytes: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var word: UInt64 = 0
        withUnsafeMutableBytes(of: &word) { $0.baseAddress!.copyMemory(from: bytes, byteCount: count) }
        return UInt64(littleEndian: word)
    }

    /// Eight more bytes, the first in the lowest bits.
    private mutating func add(word: UInt64) {
        length += 8
        guard pendingCount != 0 else { return mix(word) }
        // Not aligned to the pending bytes: the word's low bytes complete them.
        let shift = 8 * UInt64(pendingCount)
        mix(pending | word << shift)
        pending = word >> (64 - shift)
    }

    /// The hash of `bytes` (``longRun`` of them at least) as xxHash64 makes it with seed 0, short
    /// of its final avalanche (the fingerprint's ``value`` has its own): four accumulators over
    /// each 32 bytes, merged, then the rest eight, four and one byte at a time.
    static func lanes(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        func word(at offset: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        func lane(_ accumulator: UInt64, _ input: UInt64) -> UInt64 { rotate(accumulator &+ input &* prime2, 31) &* prime1 }
        var first = prime1 &+ prime2, second = prime2, third: UInt64 = 0, fourth = 0 &- prime1
        var index = 0
        while index + 32 <= bytes.count {
            first = lane(first, word(at: index))
            second = lane(second, word(at: index + 8))
            third = lane(third, word(at: index + 16))
            fourth = lane(fourth, word(at: index + 24))
            index += 32
        }
        var hash = rotate(first, 1) &+ rotate(second, 7) &+ rotate(third, 12) &+ rotate(fourth, 18)
        for accumulator in [first, second, third, fourth] {
            hash = (hash ^ round(accumulator)) &* prime1 &+ prime4
        }
        hash &+= UInt64(bytes.count)
        while index + 8 <= bytes.count {
            hash ^= round(word(at: index))
            hash = rotate(hash, 27) &* prime1 &+ prime4
            index += 8
        }
        if index + 4 <= bytes.count {
            hash ^= UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self))) &* prime1
            hash = rotate(hash, 23) &* prime2 &+ prime3
            index += 4
        }
        while index < bytes.count {
            hash ^= UInt64(bytes[index]) &* prime5
            hash = rotate(hash, 11) &* prime1
            index += 1
        }
        return hash
    }

    private mutating func mix(_ word: UInt64) {
        hash ^= Self.round(word)
        hash = Self.rotate(hash, 27) &* Self.prime1 &+ Self.prime4
    }

    private static func round(_ word: UInt64) -> UInt64 {
        rotate(word &* prime2, 31) &* prime1
    }

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        value << bits | value >> (64 - bits)
    }
}
