import Foundation

/// What checking one page's links found, before the anchors of the other pages and the state
/// of external URLs are known.
struct PageOutcome: Sendable {
    /// Identifies one finding of a page: its resolved target and its reason.
    struct FindingKey: Hashable, Sendable {
        var resolved: ByteString
        var reason: String
    }

    /// A finding with the position of the link it is about among the page's links, so findings
    /// on one line keep document order.
    struct OrderedFinding: Sendable {
        var finding: Finding
        var order: Int
    }

    /// Links to anchors on another page, one per (page, fragment). The bytes are shared with
    /// the scanned link and the tally's key, so a page keeps no copies.
    struct FragmentLink: Sendable {
        var order: Int
        var page: Int
        var fragment: [UInt8]
        /// The link as written.
        var value: [UInt8]
        var line: Int
    }

    /// External URLs to check, one per URL (without its fragment).
    struct ExternalLink: Sendable {
        var order: Int
        var url: URL
        /// The link as written.
        var value: [UInt8]
        var line: Int
    }

    /// The page's anchors, which links from other pages are checked against.
    var anchors = PageAnchors()
    var findings = Tally<FindingKey, OrderedFinding>()
    var fragmentLinks = Tally<FragmentKey, FragmentLink>()
    var externalLinks = Tally<String, ExternalLink>()
    var checkedLinks = 0

    struct FragmentKey: Hashable, Sendable {
        var page: Int
        var fragment: [UInt8]
    }
}

extension PageOutcome {
    /// The outcome of a page that could not be read: one broken finding about the page itself.
    init(unreadable page: ByteString, error: any Error) {
        self.init()
        let finding = Finding(severity: .broken, source: page.description, location: nil, target: "", reason: "\(error)")
        findings.add(.init(resolved: page, reason: finding.reason)) { .init(finding: finding, order: 0) }
    }
}
