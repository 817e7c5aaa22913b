/// How a value reads when interpolated with `{{name}}` or `{{{name}}}`.
enum Interpolation {
    /// Largest magnitude below which every whole Double is exact and prints as an integer.
    private static let exactIntegerLimit = 9_007_199_254_740_992.0  // 2^53

    /// Whole numbers print without a decimal point (`85`), others in Swift's shortest form (`1.21`).
    static func text(of number: Double) -> String {
        if number.rounded(.towardZero) == number, abs(number) < exactIntegerLimit {
            return String(Int64(number))
        }
        return String(number)
    }
}
