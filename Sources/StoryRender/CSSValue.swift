/// Checks for CSS values taken from content (a text colour, a cell background, a text alignment)
/// before they go into a `style` attribute, so a value cannot end its declaration and add others
/// (`red; position: fixed`), load a resource (`url(...)`) or run script (`expression(...)`).
enum CSSValue {
    /// Whether `value` is a plain CSS value: a keyword, number, length, `#hex` or a colour
    /// function such as `rgb(204, 255, 204)`.
    static func isSafe(_ value: String) -> Bool {
        guard !value.isEmpty, value.utf8.count <= 100 else { return false }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "#"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","),
                 UInt8(ascii: "."), UInt8(ascii: "%"), UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "/"):
                continue
            default:
                return false
            }
        }
        guard value.utf8.contains(UInt8(ascii: "(")) else { return true }
        let lowercased = value.lowercased()
        return !lowercased.contains("url(") && !lowercased.contains("expression(")
    }
}
