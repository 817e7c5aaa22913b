import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import SiteOutput

extension SiteOutputTests {
    @Suite("Atom feeds")
    struct AtomFeedTests {
        /// An element read back from the feed text.
        final class Element {
            let name: String
            let attributes: [String: String]
            var text = ""
            var children: [Element] = []

            init(name: String, attributes: [String: String]) {
                self.name = name
                self.attributes = attributes
            }

            func all(_ name: String) -> [Element] { children.filter { $0.name == name } }
            func first(_ name: String) -> Element? { children.first { $0.name == name } }
            func text(_ name: String) -> String? { first(name)?.text }
            /// The `href` of the `<link>` with `rel`.
            func link(_ rel: String) -> String? { all("link").first { $0.attributes["rel"] == rel }?.attributes["href"] }
        }

        /// Parses XML with Foundation's parser into elements, failing the test when it is not well-formed.
        final class TreeBuilder: NSObject, XMLParserDelegate {
            private var stack: [Element] = []
            var root: Element?

            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
                let element = Element(name: name, attributes: attributes)
                stack.last?.children.append(element)
                if stack.isEmpty { root = element }
                stack.append(element)
            }

            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
                stack.removeLast()
            }

            func parser(_ parser: XMLParser, foundCharacters string: String) {
                stack.last?.text += string
            }

            static func parse(_ xml: String) throws -> Element {
                let parser = XMLParser(data: Data(xml.utf8))
                let builder = TreeBuilder()
                parser.delegate = builder
                let parsed = parser.parse()
                #expect(parsed, "not well-formed: \(String(describing: parser.parserError))")
                return try #require(builder.root)
            }
        }

        private static let sample = AtomFeed(
            title: "Blog",
            feedURL: "https://example.com/blog/feed.xml",
            siteURL: "https://example.com/blog/",
            subtitle: "Notes and news",
            entries: [
                .init(title: "Second post", url: "https://example.com/blog/second/",
                      published: "2024-03-30 08:00", updated: "2024-04-02T10:11:12.345Z", summaryHTML: "<p>Hello</p>"),
                .init(title: "First post", url: "https://example.com/blog/first/", published: "2018-04-13T17:38:33.638Z"),
            ])

        @Test("the feed is well-formed Atom with its title, links, id, dates and entries in the given order")
        func structure() throws {
            let xml = Self.sample.xml
            #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"))
            let feed = try TreeBuilder.parse(xml)
            #expect(feed.name == "feed")
            #expect(feed.attributes["xmlns"] == "http://www.w3.org/2005/Atom")
            #expect(feed.text("title") == "Blog")
            #expect(feed.text("subtitle") == "Notes and news")
            #expect(feed.link("self") == "https://example.com/blog/feed.xml")
            #expect(feed.link("alternate") == "https://example.com/blog/")
            #expect(feed.all("link").first { $0.attributes["rel"] == "alternate" }?.attributes["type"] == "text/html")
            #expect(feed.text("id") == "https://example.com/blog/")
            #expect(feed.text("updated") == "2024-04-02T10:11:12Z")

            let entries = feed.all("entry")
            #expect(entries.map { $0.text("title") } == ["Second post", "First post"])
            #expect(entries.map { $0.text("id") } == ["https://example.com/blog/second/", "https://example.com/blog/first/"])
            #expect(entries.map { $0.link("alternate") } == ["https://example.com/blog/second/", "https://example.com/blog/first/"])
            #expect(entries.map { $0.text("published") } == ["2024-03-30T08:00:00Z", "2018-04-13T17:38:33Z"])
            #expect(entries.map { $0.text("updated") } == ["2024-04-02T10:11:12Z", "2018-04-13T17:38:33Z"])
            #expect(entries[0].first("summary")?.attributes["type"] == "html")
            #expect(entries[0].text("summary") == "<p>Hello</p>")
            #expect(entries[1].first("summary") == nil)
        }

        @Test("the whole text of a small feed, with its author")
        func exactText() {
            let feed = AtomFeed(title: "News", feedURL: "https://example.com/feed.xml", siteURL: "https://example.com/", author: "Kestrel & Co", entries: [
                .init(title: "Launch", url: "https://example.com/launch/", published: "2024-03-30"),
            ])
            #expect(feed.xml == """
                <?xml version="1.0" encoding="utf-8"?>
                <feed xmlns="http://www.w3.org/2005/Atom">
                  <title>News</title>
                  <link rel="self" type="application/atom+xml" href="https://example.com/feed.xml"/>
                  <link rel="alternate" type="text/html" href="https://example.com/"/>
                  <id>https://example.com/</id>
                  <updated>2024-03-30T00:00:00Z</updated>
                  <author><name>Kestrel &amp; Co</name></author>
                  <entry>
                    <title>Launch</title>
                    <link rel="alternate" type="text/html" href="https://example.com/launch/"/>
                    <id>https://example.com/launch/</id>
                    <published>2024-03-30T00:00:00Z</published>
                    <updated>2024-03-30T00:00:00Z</updated>
                  </entry>
                </feed>

                """)
        }

        @Test("markup characters in titles, URLs and summaries are escaped and read back unchanged")
        func escaping() throws {
            let title = #"Tom & Jerry's <"best"> bits"#
            let url = #"https://example.com/search?q=a&b="c"<d>"#
            let summary = #"<p class="intro">Fish &amp; chips</p>"#
            let feed = AtomFeed(title: title, feedURL: url, siteURL: url, subtitle: title, entries: [
                .init(title: title, url: url, summaryHTML: summary),
            ])
            let xml = feed.xml
            #expect(xml.contains("<title>Tom &amp; Jerry&#39;s &lt;&quot;best&quot;&gt; bits</title>"))
            #expect(xml.contains(#"href="https://example.com/search?q=a&amp;b=&quot;c&quot;&lt;d&gt;""#))
            #expect(xml.contains("&lt;p class=&quot;intro&quot;&gt;Fish &amp;amp; chips&lt;/p&gt;"))

            let parsed = try TreeBuilder.parse(xml)
            #expect(parsed.text("title") == title)
            #expect(parsed.text("subtitle") == title)
            #expect(parsed.link("self") == url)
            #expect(parsed.text("id") == url)
            let entry = try #require(parsed.first("entry"))
            #expect(entry.text("title") == title)
            #expect(entry.link("alternate") == url)
            #expect(entry.text("summary") == summary)
        }

        @Test("control characters XML cannot hold are dropped, so the feed stays well-formed")
        func controlCharacters() throws {
            let feed = AtomFeed(title: "Bell\u{7}\u{0} and\ttab", feedURL: "https://example.com/feed.xml", siteURL: "https://example.com/", entries: [])
            #expect(try TreeBuilder.parse(feed.xml).text("title") == "Bell and\ttab")
        }

        @Test("an entry's updated falls back to its published date, then to the feed's; the feed's is the latest as an instant")
        func updatedFallbacks() throws {
            let feed = AtomFeed(title: "T", feedURL: "https://e.com/feed.xml", siteURL: "https://e.com/", entries: [
                .init(title: "offset", url: "https://e.com/a/", updated: "2024-05-01T01:00:00+02:00"),
                .init(title: "utc", url: "https://e.com/b/", published: "2024-04-30 23:30"),
                .init(title: "none", url: "https://e.com/c/"),
                .init(title: "bad", url: "https://e.com/d/", published: "soon", updated: "later"),
            ])
            let parsed = try TreeBuilder.parse(feed.xml)
            #expect(parsed.text("updated") == "2024-04-30T23:30:00Z")
            #expect(parsed.all("entry").map { $0.text("updated") }
                == ["2024-04-30T23:00:00Z", "2024-04-30T23:30:00Z", "2024-04-30T23:30:00Z", "2024-04-30T23:30:00Z"])
            #expect(parsed.all("entry").map { $0.text("published") } == [nil, "2024-04-30T23:30:00Z", nil, nil])
        }

        @Test("without any dates the feed is dated at the epoch, never the clock")
        func noDates() throws {
            let empty = AtomFeed(title: "T", feedURL: "https://e.com/feed.xml", siteURL: "https://e.com/", entries: [])
            #expect(try TreeBuilder.parse(empty.xml).text("updated") == "1970-01-01T00:00:00Z")
            #expect(try TreeBuilder.parse(empty.xml).all("entry").isEmpty)

            let undated = AtomFeed(title: "T", feedURL: "https://e.com/feed.xml", siteURL: "https://e.com/", entries: [
                .init(title: "a", url: "https://e.com/a/"),
            ])
            let parsed = try TreeBuilder.parse(undated.xml)
            #expect(parsed.text("updated") == "1970-01-01T00:00:00Z")
            #expect(parsed.first("entry")?.text("updated") == "1970-01-01T00:00:00Z")
        }

        @Test("the same feed gives byte-identical text every time")
        func deterministic() {
            let first = Self.sample.xml
            for _ in 0..<5 { #expect(Array(Self.sample.xml.utf8) == Array(first.utf8)) }
            #expect(Self.sample == Self.sample)
        }
    }
}
