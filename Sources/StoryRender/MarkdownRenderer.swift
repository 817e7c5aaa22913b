import CCMark
import Foundation
import Mustache

/// Converts CommonMark to HTML with libcmark, letting the caller rewrite every link and image
/// destination first (site-relative links become page-relative hrefs).
///
/// Safe by default, as cmark 0.30 is without `CMARK_OPT_UNSAFE`: raw HTML is replaced by
/// `<!-- raw HTML omitted -->`. With `unsafe`, raw HTML passes through (the site owner's choice,
/// `markdown.unsafe: true`). In both modes a destination that could run script (`javascript:`
/// and its obfuscations, see ``URLSafety``) is blanked and reported.
public struct MarkdownRenderer: Sendable {
    /// Whether raw HTML in the Markdown is kept.
    public var unsafe: Bool

    public init(unsafe: Bool = false) {
        self.unsafe = unsafe
    }

    /// A link or image destination as written in the Markdown.
    public struct Destination: Sendable, Hashable {
        /// The URL as written (after Markdown unescaping).
        public var url: String
        /// Whether it is an image source rather than a link.
        public var isImage: Bool
    }

    /// The HTML of `markdown`; each safe destination is replaced by what `rewrite` returns.
    public func render(_ markdown: String, rewrite: (Destination) -> String = { $0.url }) -> RenderedMarkdown {
        let options = unsafe ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
        var source = markdown
        let document = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, options) }
        }
        guard let document else { return RenderedMarkdown(html: "", refusedURLs: []) }
        defer { cmark_node_free(document) }

        var refused: [String] = []
        let iterator = cmark_iter_new(document)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            let isImage = type == CMARK_NODE_IMAGE
            let isSafe = isImage ? URLSafety.isSafeImageSource(url) : URLSafety.isSafeLink(url)
            let replacement: String
            if isSafe {
                replacement = rewrite(Destination(url: url, isImage: isImage))
            } else {
                refused.append(url)
                replacement = ""
            }
            if replacement != url { cmark_node_set_url(node, replacement) }
        }

        guard let rendered = cmark_render_html(document, options) else {
            return RenderedMarkdown(html: "", refusedURLs: refused)
        }
        defer { free(rendered) }
        return RenderedMarkdown(html: String(cString: rendered), refusedURLs: refused)
    }
}

/// The result of ``MarkdownRenderer/render(_:rewrite:)``.
public struct RenderedMarkdown: Sendable, Hashable {
    /// The HTML.
    public var html: String
    /// Destinations blanked because they could run script, in document order.
    public var refusedURLs: [String]
}
