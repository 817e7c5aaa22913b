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
