/// What link checking keeps of one parsed page: its anchors, its links in document order, and
/// its `<base href>`; never the document itself.
struct ScannedPage: Sendable {
    /// One URL a page refers to (a `srcset` gives one per candidate).
    struct Link: Sendable {
        /// The value as written, entities decoded.
        var value: [UInt8]
        var line: Int
    }

    /// An `id` that an earlier element of the page already has.
    struct DuplicateID: Sendable {
        var id: ByteString
        var line: Int
        var firstLine: Int
    }

    /// Element `id`s and `<a name>`s: the fragments that lead somewhere on this page.
    var anchors = PageAnchors()
    var duplicateIDs: [DuplicateID] = []
    var links: [Link] = []
    /// The first `<base href>`, which every relative link of the page resolves against.
    var baseHref: [UInt8]?
}
