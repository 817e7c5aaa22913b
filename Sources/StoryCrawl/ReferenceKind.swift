/// Where in content a story reference was found.
public enum ReferenceKind: String, Sendable, Hashable, CaseIterable {
    /// A multilink field: `linktype: "story"`, or `linktype: "url"` pointing into the site.
    case multilink
    /// A link mark in a richtext document.
    case richtext
    /// An option or multi-option field holding story UUIDs (or resolved relations).
    case relation
    /// A Markdown link `[text](target)` in a string field whose target is a site path.
    case markdown
    /// A folder's start page listing a story of its folder (see ``Story/startPageFolder``):
    /// navigation the crawl follows, but not a link an editor wrote, so never a backlink and
    /// never broken.
    case listing
}

extension ReferenceKind {
    /// The kind as a number, as the kept content writes it.
    var code: UInt8 {
        switch self {
        case .multilink: 0
        case .richtext: 1
        case .relation: 2
        case .markdown: 3
        case .listing: 4
        }
    }

    /// The kind whose ``code`` is `code`; nil for none.
    init?(code: UInt8) {
        switch code {
        case 0: self = .multilink
        case 1: self = .richtext
        case 2: self = .relation
        case 3: self = .markdown
        case 4: self = .listing
        default: return nil
        }
    }
}
