/// A story's UUID as a dictionary key. A UUID in the form Storyblok writes (36 characters:
/// lowercase hexadecimal digits and dashes, 8-4-4-4-12) is held as two integers, so that hashing
/// and comparing it read no string storage; any other identifier (a short id such as `"1"`, an
/// uppercase UUID, a name in a test) is held as its string. Two keys are equal exactly when
/// their strings are.
///
/// The stories, the crawl and the link graph look stories up by UUID once for every link; at
/// 100,000 stories hashing and comparing UUID strings was a tenth of a build's processor time.
public struct StoryKey: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64
    /// The identifier, when it is not a UUID in the packed form.
    private let other: String?

    public init(_ uuid: String) {
        var uuid = uuid
        if let (high, low) = uuid.withUTF8(Self.packed) {
            self.high = high
            self.low = low
            other = nil
        } else {
            high = 0
            low = 0
            other = uuid
        }
    }

    /// The identifier, when it is not a UUID held packed.
    var otherIdentifier: String? { other }
    /// The packed UUID's two numbers (both 0 for any other identifier).
    var packedNumbers: (high: UInt64, low: UInt64) { (high, low) }

    public static func == (lhs: StoryKey, rhs: StoryKey) -> Bool {
        lhs.high == rhs.high && lhs.low == rhs.low && lhs.other == rhs.other
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
        if let other { hasher.combine(other) }
    }

    /// The 32 digits of a lowercase UUID as two numbers; nil for anything else.
    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard bytes.count == 36, bytes[8] == dash, bytes[13] == dash, bytes[18] == dash, bytes[23] == dash else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        // Any byte that is no lowercase hex digit has a value with high bits set.
        var invalid: UInt8 = 0
        for offset in [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17] {
            let digit = digitValues[Int(bytes[offset])]
            invalid |= digit
            high = high << 4 | UInt64(digit)
        }
        for offset in [19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35] {
            let digit = digitValues[Int(bytes[offset])]
            invalid |= digit
            low = low << 4 | UInt64(digit)
        }
        return invalid & 0xF0 == 0 ? (high, low) : nil
    }

    private static let dash = UInt8(ascii: "-")

    /// The value of each byte as a lowercase hexadecimal digit; 0xFF for any other byte.
    private static let digitValues: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt8(byte) - UInt8(ascii: "a") + 10
        default: return 0xFF
        }
    }
}
