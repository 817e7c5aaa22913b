import Foundation
import ParallelWork
import StoryModel

/// `sitemap.xml` and `robots.txt`, written when the site has a base URL (both need absolute URLs).
public enum Sitemap {
    /// One page in the sitemap.
    public struct Entry: Sendable {
        /// The site-relative URL (`blog/post/`, or empty for home).
        public var url: String
        /// When the page was last published (W3C date-time, such as `2024-03-30T08:00:00Z`), if known.
        public var lastModified: String?
        /// The language versions of the page, written in this order as `xhtml:link` elements after
        /// `<loc>` and `<lastmod>`. Google expects every version to list all versions, itself included.
        public var alternates: [Alternate]

        public init(url: String, lastModified: String?, alternates: [Alternate] = []) {
            self.url = url
            self.lastModified = lastModified
            self.alternates = alternates
        }
    }

    /// One language version of a page: `<xhtml:link rel="alternate" hreflang="…" href="…"/>`.
    public struct Alternate: Sendable, Equatable {
        /// The language (and optionally region) code, such as `de` or `pt-br`, or `x-default`.
        public var hreflang: String
        /// The site-relative URL of that version (`de/blog/post/`, or empty for home), made absolute like `url`.
        public var url: String

        public init(hreflang: String, url: String) {
            self.hreflang = hreflang
            self.url = url
        }
    }

    /// The sitemap XML for `entries`, sorted by URL, made on at most `jobs` threads. The XHTML
    /// namespace is declared only when some entry has alternates, so a single-language site's
    /// sitemap carries no unused namespace.
    public static func xml(entries: [Entry], baseURL: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        if entries.contains(where: { !$0.alternates.isEmpty }) {
            xml += "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n"
        } else {
            xml += "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        }
        let sorted = ByteOrder.order(of: entries.map(\.url)).map { entries[$0] }
        // In slices, one per thread and a few more to even them out; each page's URL is written
        // once as its `loc` and once as an alternate of each of its versions, so it is made once
        // per slice.
        let sliceCount = min(sorted.count, max(1, jobs) * 4)
        let slices = ParallelWork.map(count: sliceCount, jobs: jobs) { slice in
            var text = ""
            var locations: [String: String] = [:]
            func location(_ url: String) -> String {
                if let made = locations[url] { return made }
                let made = absoluteURL(url, baseURL: baseURL).markupEscaped
                locations[url] = made
                return made
            }
            for entry in sorted[sorted.count * slice / sliceCount..<sorted.count * (slice + 1) / sliceCount] {
                text += "  <url>\n    <loc>"
                text += location(entry.url)
                text += "</loc>\n"
                if let lastModified = entry.lastModified, !lastModified.isEmpty {
                    text += "    <lastmod>"
                    text += lastModified.markupEscaped
                    text += "</lastmod>\n"
                }
                // The schema's `url` is loc, lastmod, changefreq, priority, then elements of other namespaces.
                for alternate in entry.alternates {
                    text += "    <xhtml:link rel=\"alternate\" hreflang=\""
                    text += alternate.hreflang.markupEscaped
                    text += "\" href=\""
                    text += location(alternate.url)
                    text += "\"/>\n"
                }
                text += "  </url>\n"
            }
            return text
        }
        for slice in slices { xml += slice }
        xml += "</urlset>\n"
        return xml
    }

    /// A fingerprint of the sitemap ``xml(entries:baseURL:jobs:)`` makes of `entries` under
    /// `baseURL`: the same for the same entries in the same order, so a build that finds the one
    /// of the sitemap it wrote last may keep that file rather than make it again.
    public static func fingerprint(of entries: [Entry], baseURL: String) -> String {
        var fingerprint = Fingerprint()
        fingerprint.combine(baseURL)
        for entry in entries {
            fingerprint.combine(entry.url)
            // A missing date and an empty one both leave out `lastmod`.
            fingerprint.combine(entry.lastModified ?? "")
            fingerprint.combine(Int64(entry.alternates.count))
            for alternate in entry.alternates {
                fingerprint.combine(alternate.hreflang)
                fingerprint.combine(alternate.url)
            }
        }
        return fingerprint.hex
    }

    /// `robots.txt` allowing everything and pointing at the sitemap.
    public static func robots(baseURL: String) -> String {
        "User-agent: *\nAllow: /\n\nSitemap: \(absoluteURL("sitemap.xml", baseURL: baseURL))\n"
    }

    /// `relativeURL` (site-relative, as slugs are written) made absolute under `baseURL`, its path
    /// percent-encoded (``PercentEncoding/path(_:)``) as hrefs and `page.canonical` are.
    public static func absoluteURL(_ relativeURL: String, baseURL: String) -> String {
        PercentEncoding.absoluteURL(relativeURL, under: baseURL)
    }
}
