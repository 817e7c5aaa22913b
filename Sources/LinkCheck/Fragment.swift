import StoryModel

/// Whether a fragment leads somewhere in a page, as the HTML standard finds "the indicated part
/// of the document": an element whose `id` is the fragment as written, or else percent-decoded
/// (`#caf%C3%A9` finds `id="café"`), or an `<a name>` (the page's anchors hold both); `#`,
/// an empty fragment and `#top` (any case) mean the top of the page; a text directive
/// (`#:~:text=…`, or `#id:~:text=…`) is not part of the fragment.
enum Fragment {
    /// Whether `fragment` (after `#`) names an anchor that must exist.
    static func needsAnchor(_ fragment: ArraySlice<UInt8>) -> Bool {
        let fragment = withoutDirective(fragment)
        return !fragment.isEmpty && !isTop(PercentDecoding.decode(fragment))
    }

    /// Whether `fragment` leads somewhere in a page with these anchors.
    static func isFound(_ fragment: ArraySlice<UInt8>, in anchors: PageAnchors) -> Bool {
        guard needsAnchor(fragment) else { return true }
        let fragment = withoutDirective(fragment)
        if anchors.contains(ByteString(Array(fragment))) { return true }
        return PercentDecoding.hasEscape(fragment) && anchors.contains(ByteString(PercentDecoding.decode(fragment)))
    }

    private static let directiveDelimiter = Array(":~:".utf8)

    private static func withoutDirective(_ fragment: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard fragment.count >= 3 else { return fragment }
        var index = fragment.startIndex
        while index <= fragment.endIndex - 3 {
            if fragment[index] == UInt8(ascii: ":"), fragment[index + 1] == UInt8(ascii: "~"), fragment[index + 2] == UInt8(ascii: ":") {
                return fragment[..<index]
            }
            index += 1
        }
        return fragment
    }

    private static func isTop(_ decoded: [UInt8]) -> Bool {
        decoded.count == 3 && decoded.map { $0 | 0x20 }.elementsEqual("top".utf8)
    }
}
