/// SplitMix64: a small, fast generator whose sequence its starting state fixes, for test and
/// benchmark data that must be the same on every run, so that a failing case repeats.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator starting from `state` as it is.
    public init(state: UInt64) {
        self.state = state
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
