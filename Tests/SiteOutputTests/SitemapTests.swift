import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("Sitemap, robots and folder rules")
    struct SitemapTests {
        @Test("the sitemap lists absolute URLs sorted by URL with lastmod from publication")
        func sitemap() {
            let xml = Sitemap.xml(entries: [
                .init(url: "blog/post/", lastModified: "2025-03-04T10:12:00.000Z"),
                .init(url: "", lastModified: nil),
                .init(url: "about/", lastModified: "2025-01-01T00:00:00.000Z"),
            ], baseURL: "https://example.com")
            #expect(xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                  <url>
                    <loc>https://example.com/</loc>
                  </url>
                  <url>
                    <loc>https://example.com/about/</loc>
                    <lastmod>2025-01-01T00:00:00.000Z</lastmod>
                  </url>
                  <url>
                    <loc>https://example.com/blog/post/</loc>
                    <lastmod>2025-03-04T10:12:00.000Z</lastmod>
                  </url>
                </urlset>

                """)
        }

        /// An element read back from a sitemap by a namespace-aware parser.
        final class XMLElement {
            let namespace: String?
            let name: String
            let qualifiedName: String?
            let attributes: [String: String]
            var text = ""
            var children: [XMLElement] = []

            init(namespace: String?, name: String, qualifiedName: String?, attributes: [String: String]) {
                self.namespace = namespace
                self.name = name
                self.qualifiedName = qualifiedName
                self.attributes = attributes
            }
        }

        /// Parses XML with Foundation's parser (libxml2 on Linux), resolving namespaces and recording
        /// the prefixes declared; failing the test when the text is not well-formed.
        final class NamespacedTreeBuilder: NSObject, XMLParserDelegate {
            private var stack: [XMLElement] = []
            var root: XMLElement?
            var prefixes: [String: String] = [:]

            func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
                prefixes[prefix] = namespaceURI
            }

            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
                let element = XMLElement(namespace: namespaceURI, name: name, qualifiedName: qualifiedName, attributes: attributes)
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

            static func parse(_ xml: String) throws -> (root: XMLElement, prefixes: [String: String]) {
                let parser = XMLParser(data: Data(xml.utf8))
                parser.shouldProcessNamespaces = true
                parser.shouldReportNamespacePrefixes = true
                let builder = NamespacedTreeBuilder()
                parser.delegate = builder
                let parsed = parser.parse()
                #expect(parsed, "not well-formed: \(String(describing: parser.parserError))")
                return (try #require(builder.root), builder.prefixes)
            }
        }

        static let sitemapNamespace = "http://www.sitemaps.org/schemas/sitemap/0.9"
        static let xhtmlNamespace = "http://www.w3.org/1999/xhtml"

        /// A site in English (the default, at the root), German and French: each page lists all its
        /// language versions, itself included, and `x-default` pointing at the English one.
        static func threeLanguageEntries() -> [Sitemap.Entry] {
            let pages: [(en: String, de: String?, fr: String?)] = [
                (en: "", de: "de/", fr: "fr/"),
                (en: "about/", de: "de/ueber-uns/", fr: "fr/a-propos/"),
                (en: "blog/coffee/", de: "de/blog/kaffee-über-alles/", fr: "fr/blog/q&a café/"),
                (en: "blog/english-only/", de: nil, fr: nil),
                (en: "news/", de: "de/neuigkeiten/", fr: nil),
            ]
            var entries: [Sitemap.Entry] = []
            for page in pages {
                var versions = [(hreflang: "en", url: page.en)]
                if let de = page.de { versions.append((hreflang: "de", url: de)) }
                if let fr = page.fr { versions.append((hreflang: "fr", url: fr)) }
                let alternates = versions.count < 2 ? [] : versions.map { Sitemap.Alternate(hreflang: $0.hreflang, url: $0.url) }
                    + [Sitemap.Alternate(hreflang: "x-default", url: page.en)]
                for (index, version) in versions.enumerated() {
                    entries.append(.init(
                        url: version.url, lastModified: index == 0 ? "2025-03-04T10:12:00.000Z" : nil, alternates: alternates))
                }
            }
            return entries.reversed()
        }

        @Test("a sitemap made on several threads is the one made on one, each entry once, in URL order", arguments: [1, 2, 3, 7, 50])
        func madeInSlices(entryCount: Int) throws {
            let entries = (0..<entryCount).map { index in
                Sitemap.Entry(url: "page-\(index)/", lastModified: nil, alternates: [.init(hreflang: "de", url: "de/page-\((index + 1) % entryCount)/")])
            }
            let sequential = Sitemap.xml(entries: entries.shuffled(), baseURL: "https://example.com/", jobs: 1)
            for jobs in [2, 4, 16] {
                #expect(Sitemap.xml(entries: entries, baseURL: "https://example.com/", jobs: jobs) == sequential, "\(jobs) jobs")
            }
            let (urlset, _) = try NamespacedTreeBuilder.parse(sequential)
            #expect(urlset.children.count == entryCount)
            let locations = sequential.matches(of: /<loc>https:\/\/example.com\/([^<]*)<\/loc>/).map { String($0.output.1) }
            #expect(locations == entries.map(\.url).sorted())
        }

        @Test("the fingerprint of a sitemap's entries changes with any address, date, language version or the base URL, and only then")
        func fingerprint() {
            let entries = Self.threeLanguageEntries()
            let base = "https://example.com/"
            let same = Sitemap.fingerprint(of: entries, baseURL: base)
            #expect(Sitemap.fingerprint(of: Self.threeLanguageEntries(), baseURL: base) == same)
            var changed: [[Sitemap.Entry]] = []
            for index in [0, entries.count - 1] {
                var url = entries, date = entries, alternates = entries
                url[index].url += "x/"
                date[index].lastModified = "2025-03-05T10:12:00.000Z"
                alternates[index].alternates = Array(alternates[index].alternates.dropLast())
                changed += [url, date, alternates]
            }
            // No date and an empty one make the same sitemap; a date moved to another entry does not.
            var empty = entries
            empty[entries.firstIndex { $0.lastModified == nil }!].lastModified = ""
            #expect(Sitemap.fingerprint(of: empty, baseURL: base) == same)
            for (number, entries) in changed.enumerated() {
                #expect(Sitemap.fingerprint(of: entries, baseURL: base) != same, "change \(number)")
            }
            #expect(Sitemap.fingerprint(of: entries, baseURL: "https://example.org/") != same)
        }

        @Test("a three-language sitemap is well-formed, namespaced, and lists every page's versions under the base URL",
              arguments: ["https://example.com", "https://example.com/docs/"])
        func threeLanguages(baseURL: String) throws {
            let entries = Self.threeLanguageEntries()
            let xml = Sitemap.xml(entries: entries, baseURL: baseURL)
            #expect(Sitemap.xml(entries: entries.shuffled(), baseURL: baseURL) == xml, "the output depends on the entries' order")
            let (urlset, prefixes) = try NamespacedTreeBuilder.parse(xml)
            let base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"

            #expect(prefixes[""] == Self.sitemapNamespace)
            #expect(prefixes["xhtml"] == Self.xhtmlNamespace)
            #expect(urlset.namespace == Self.sitemapNamespace && urlset.name == "urlset")
            #expect(urlset.children.count == entries.count)

            // What each page should list, by absolute `loc`, as `hreflang href` lines.
            var expected: [String: [String]] = [:]
            for entry in entries {
                expected[Sitemap.absoluteURL(entry.url, baseURL: baseURL)] = entry.alternates.map {
                    "\($0.hreflang) \(Sitemap.absoluteURL($0.url, baseURL: baseURL))"
                }
            }
            var locs: [String] = []
            for url in urlset.children {
                #expect(url.namespace == Self.sitemapNamespace && url.name == "url")
                // The schema's order: loc, then lastmod, then elements of other namespaces.
                let names = url.children.map { "\($0.namespace ?? "-") \($0.name)" }
                let order = names.drop { $0 == "\(Self.sitemapNamespace) loc" }.drop { $0 == "\(Self.sitemapNamespace) lastmod" }
                #expect(names.first == "\(Self.sitemapNamespace) loc")
                #expect(order.allSatisfy { $0 == "\(Self.xhtmlNamespace) link" }, "\(names)")

                let loc = try #require(url.children.first).text
                locs.append(loc)
                let links = url.children.filter { $0.namespace == Self.xhtmlNamespace }
                for link in links {
                    #expect(link.name == "link" && link.qualifiedName == "xhtml:link")
                    #expect(link.attributes["rel"] == "alternate")
                }
                let listed = links.map { "\($0.attributes["hreflang"] ?? "?") \($0.attributes["href"] ?? "?")" }
                #expect(listed == expected[loc], "\(loc)")
                if !links.isEmpty {
                    #expect(listed.contains { $0.hasSuffix(" " + loc) }, "\(loc) does not list itself")
                    #expect(listed.filter { $0.hasPrefix("x-default ") }.count == 1, "\(loc)")
                }
                for href in [loc] + links.compactMap({ $0.attributes["href"] }) {
                    #expect(href.hasPrefix(base) && URL(string: href) != nil, "\(href)")
                }
            }
            #expect(locs == locs.sorted())
            #expect(Set(locs) == Set(expected.keys))
            // The awkward slugs come back as written, percent-encoded, after XML unescaping.
            #expect(locs.contains(base + "de/blog/kaffee-%C3%BCber-alles/"))
            #expect(locs.contains(base + "fr/blog/q&a%20caf%C3%A9/"))
            #expect(xml.contains("href=\"\(base)fr/blog/q&amp;a%20caf%C3%A9/\"/>"))
            // The page in one language has no alternates.
            let englishOnly = try #require(urlset.children.first { $0.children.first?.text == base + "blog/english-only/" })
            #expect(englishOnly.children.map(\.name) == ["loc", "lastmod"])
        }

        @Test("the exact text of a small two-language sitemap")
        func alternatesText() {
            let alternates: [Sitemap.Alternate] = [
                .init(hreflang: "en", url: ""),
                .init(hreflang: "pt-br", url: "pt-br/"),
                .init(hreflang: "x-default", url: ""),
            ]
            let xml = Sitemap.xml(entries: [
                .init(url: "pt-br/", lastModified: nil, alternates: alternates),
                .init(url: "imprint/", lastModified: "2025-01-01T00:00:00.000Z"),
                .init(url: "", lastModified: "2025-03-04T10:12:00.000Z", alternates: alternates),
            ], baseURL: "https://example.com/docs")
            #expect(xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
                  <url>
                    <loc>https://example.com/docs/</loc>
                    <lastmod>2025-03-04T10:12:00.000Z</lastmod>
                    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/docs/"/>
                    <xhtml:link rel="alternate" hreflang="pt-br" href="https://example.com/docs/pt-br/"/>
                    <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/docs/"/>
                  </url>
                  <url>
                    <loc>https://example.com/docs/imprint/</loc>
                    <lastmod>2025-01-01T00:00:00.000Z</lastmod>
                  </url>
                  <url>
                    <loc>https://example.com/docs/pt-br/</loc>
                    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/docs/"/>
                    <xhtml:link rel="alternate" hreflang="pt-br" href="https://example.com/docs/pt-br/"/>
                    <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/docs/"/>
                  </url>
                </urlset>

                """)
        }

        @Test("alternates' language codes and URLs are escaped as loc is")
        func alternateEscaping() {
            let xml = Sitemap.xml(entries: [
                .init(url: "a&b/", lastModified: nil, alternates: [.init(hreflang: "x\"<&>'", url: "c&d/")]),
            ], baseURL: "https://example.com/")
            #expect(xml.contains("    <loc>https://example.com/a&amp;b/</loc>\n"))
            #expect(xml.contains("    <xhtml:link rel=\"alternate\" hreflang=\"x&quot;&lt;&amp;&gt;&#39;\" href=\"https://example.com/c&amp;d/\"/>\n"))
        }

        @Test("sitemap URLs are percent-encoded")
        func encodedURLs() {
            #expect(Sitemap.absoluteURL("blog/café au lait/", baseURL: "https://example.com/") == "https://example.com/blog/caf%C3%A9%20au%20lait/")
        }

        @Test("every ASCII character in a slug is encoded as Foundation's path encoding would")
        func asciiMatchesFoundation() {
            for byte in UInt8(0x20)...UInt8(0x7E) {
                let slug = "blog/a" + String(UnicodeScalar(byte)) + "b/"
                let expected = "https://example.com/" + slug.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
                #expect(Sitemap.absoluteURL(slug, baseURL: "https://example.com/") == expected, "\(slug)")
            }
        }

        @Test("robots.txt points at the sitemap under the base URL")
        func robots() {
            #expect(Sitemap.robots(baseURL: "https://example.com/docs/")
                == "User-agent: *\nAllow: /\n\nSitemap: https://example.com/docs/sitemap.xml\n")
        }

        @Test("the output folder may not be the current folder, the source or the templates")
        func protectedFolders() throws {
            let workspace = try TemporaryFolder()
            let content = workspace.path("Content")
            let templates = workspace.path("Templates")
            let protected = [(name: "source", url: content), (name: "templates", url: templates)]
            func check(_ output: URL) throws {
                try OutputFolderRules.check(
                    output: output, displayPath: output.lastPathComponent, currentFolder: workspace.url, protected: protected)
            }
            #expect(throws: OutputError.self) { try check(workspace.url) }
            #expect(throws: OutputError.self) { try check(workspace.url.deletingLastPathComponent()) }
            #expect(throws: OutputError.self) { try check(content) }
            #expect(throws: OutputError.self) { try check(templates.appendingPathComponent("out")) }
            #expect {
                try check(content)
            } throws: { error in
                (error as? OutputError)?.message.hasPrefix("the output folder cannot be, contain or lie inside the source folder") == true
            }
            try check(workspace.path("Output"))
        }
    }
}
