#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Whether the string's UTF-8 bytes sort before `other`'s: the order of paths and slugs in
    /// listings and files, the same on every machine (`<` compares by Unicode equivalence).
    /// The bytes are compared in place with `memcmp`: sorting a hundred thousand paths through
    /// the UTF-8 views' iterators took a tenth of a second.
    public func utf8Precedes(_ other: String) -> Bool {
        let compared = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                let common = Swift.min(lhs.count, rhs.count)
                let order = common == 0 ? 0 : memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
                return order != 0 ? order < 0 : lhs.count < rhs.count
            }
        }
        return (compared ?? nil) ?? utf8.lexicographicallyPrecedes(other.utf8)
    }
}

/// Sorting many strings by their UTF-8 bytes (the order of ``Swift/String/utf8Precedes(_:)``).
/// Each string's first 24 bytes are read once into three integers, and the sort compares those,
/// reading a string again only for two that share them: comparing the strings themselves reads
/// each from wherever the heap put it, which at a hundred thousand paths (a manifest, a cache
/// file's records) took three times as long.
public enum ByteOrder {
    /// The positions of `strings` in the order of their bytes; equal ones in the order given.
    public static func order(of strings: [String]) -> [Int] {
        var keys = strings.indices.map { SortKey(strings[$0], position: $0) }
        keys.sort { lhs, rhs in
            if lhs.words != rhs.words { return lhs.words < rhs.words }
            let (left, right) = (strings[lhs.position], strings[rhs.position])
            if left.utf8Precedes(right) { return true }
            return !right.utf8Precedes(left) && lhs.position < rhs.position
        }
        return keys.map(\.position)
    }

    /// `strings` in the order of their bytes.
    public static func sorted(_ strings: some Sequence<String>) -> [String] {
        let strings = Array(strings)
        return order(of: strings).map { strings[$0] }
    }

    /// The indices of `dictionary` in the order of its keys' bytes: its entries are then read in
    /// that order without a lookup of each key, nor a copy of each value to sort.
    public static func sortedIndices<Value>(of dictionary: [String: Value]) -> [Dictionary<String, Value>.Index] {
        let indices = Array(dictionary.indices)
        return order(of: indices.map { dictionary[$0].key }).map { indices[$0] }
    }

    /// A string's first 24 bytes as three big-endian words (zeros past its end), and its position.
    private struct SortKey {
        var words: (UInt64, UInt64, UInt64)
        var position: Int

        init(_ string: String, position: Int) {
            var prefix: (UInt64, UInt64, UInt64) = (0, 0, 0)
            withUnsafeMutableBytes(of: &prefix) { buffer in
                var string = string
                string.withUTF8 { bytes in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(buffer.count))))
                }
            }
            words = (UInt64(bigEndian: prefix.0), UInt64(bigEndian: prefix.1), UInt64(bigEndian: prefix.2))
            self.position = position
        }
    }
}
