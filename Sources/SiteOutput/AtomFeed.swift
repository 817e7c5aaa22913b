import StoryModel
/// An Atom 1.0 feed (RFC 4287) of a listing's stories.
///
/// The text is deterministic: entries keep their given order, and the feed's `<updated>` comes from
/// the entries' dates (never the clock), so the same input gives byte-identical files.
public struct AtomFeed: Sendable, Hashable {
    /// One story in the feed.
    public struct Entry: Sendable, Hashable {
        /// The story's title, as plain text.
        public var title: String
        /// The absolute URL of the story's page; also the entry's `<id>`.
        public var url: String
        /// When the story was first published, as Storyblok stores it.
        public var published: String?
        /// When the story was last changed, as Storyblok stores it.
        public var updated: String?
        /// A summary as HTML; written escaped, as `<summary type="html">` requires.
        public var summaryHTML: String?

        public init(title: String, url: String, published: String? = nil, updated: String? = nil, summaryHTML: String? = nil) {
            self.title = title
            self.url = url
            self.published = published
            self.updated = updated
            self.summaryHTML = summaryHTML
        }
    }

    /// The feed's title, as plain text.
    public var title: String
    /// The absolute URL of the feed file itself (`<link rel="self">`).
    public var feedURL: String
    /// The absolute URL of the page the feed belongs to (`<link rel="alternate">`); also the feed's `<id>`.
    public var siteURL: String
    /// A line describing the feed, as plain text; left out when nil or empty.
    public var subtitle: String?
    /// Who writes the feed (`<author><name>`, which RFC 4287 asks of a feed whose entries name
    /// none), as plain text; left out when nil or empty.
    public var author: String?
    /// The entries, written in this order.
    public var entries: [Entry]

    public init(title: String, feedURL: String, siteURL: String, subtitle: String? = nil, author: String? = nil, entries: [Entry]) {
        self.title = title
        self.feedURL = feedURL
        self.siteURL = siteURL
        self.subtitle = subtitle
        self.author = author
        self.entries = entries
    }

    /// The feed as XML text (to be written as UTF-8). An entry's `<updated>` is its `updated` date,
    /// else its `published` date, else the feed's; the feed's is the latest of the entries' (as
    /// instants), or `1970-01-01T00:00:00Z` when none has a date. Unreadable dates count as absent.
    public var xml: String {
        let entryUpdates = entries.map { StoryDate($0.updated) ?? StoryDate($0.published) }
        let feedUpdated = entryUpdates.compactMap { $0 }.max() ?? StoryDate(secondsSinceEpoch: 0)

        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        xml += "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
        xml += "  <title>\(title.xmlEscaped)</title>\n"
        if let subtitle, !subtitle.isEmpty { xml += "  <subtitle>\(subtitle.xmlEscaped)</subtitle>\n" }
        xml += "  <link rel=\"self\" type=\"application/atom+xml\" href=\"\(feedURL.xmlEscaped)\"/>\n"
        xml += "  <link rel=\"alternate\" type=\"text/html\" href=\"\(siteURL.xmlEscaped)\"/>\n"
        xml += "  <id>\(siteURL.xmlEscaped)</id>\n"
        xml += "  <updated>\(feedUpdated.rfc3339)</updated>\n"
        if let author, !author.isEmpty { xml += "  <author><name>\(author.xmlEscaped)</name></author>\n" }
        for (entry, updated) in zip(entries, entryUpdates) {
            xml += "  <entry>\n"
            xml += "    <title>\(entry.title.xmlEscaped)</title>\n"
            xml += "    <link rel=\"alternate\" type=\"text/html\" href=\"\(entry.url.xmlEscaped)\"/>\n"
            xml += "    <id>\(entry.url.xmlEscaped)</id>\n"
            if let published = StoryDate(entry.published) { xml += "    <published>\(published.rfc3339)</published>\n" }
            xml += "    <updated>\((updated ?? feedUpdated).rfc3339)</updated>\n"
            if let summary = entry.summaryHTML, !summary.isEmpty {
                xml += "    <summary type=\"html\">\(summary.xmlEscaped)</summary>\n"
            }
            xml += "  </entry>\n"
        }
        xml += "</feed>\n"
        return xml
    }
}

extension String {
    /// The string escaped for XML text and attributes, without the characters XML 1.0 cannot hold
    /// at all (control characters other than tab and line breaks), which content sometimes carries.
    fileprivate var xmlEscaped: String {
        guard unicodeScalars.contains(where: Self.isForbiddenInXML) else { return markupEscaped }
        var allowed = String.UnicodeScalarView()
        allowed.append(contentsOf: unicodeScalars.filter { !Self.isForbiddenInXML($0) })
        return String(allowed).markupEscaped
    }

    private static func isForbiddenInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0..<0x20, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }
}
