import Mustache

/// The `{{#markdown}}{{{text}}}{{/markdown}}` helper: renders the enclosed text in the current
/// context, converts it with ``MarkdownRenderer``, and resolves its links from the page: site
/// paths (`/blog/post#intro`, `../other`) like story links, site-root image paths relative to
/// the page. Broken site links and refused script URLs are reported.
enum MarkdownSection {
    static func lambda(renderer: MarkdownRenderer, links: PageLinks, story: String, log: RenderLog) -> MustacheValue {
        .lambda(MustacheLambda { invocation in
            let section = invocation.text ?? ""
            let source = try invocation.render(section)
            let location = "{{#markdown}}" + section.trimmingCharacters(in: .whitespacesAndNewlines) + "{{/markdown}}"
            return .html(html(of: source, renderer: renderer, links: links, story: story, fieldPath: location, log: log))
        })
    }

    /// `source` converted to HTML, its links resolved from the page `links` describes; problems
    /// are reported under `story` and `fieldPath`.
    static func html(of source: String, renderer: MarkdownRenderer, links: PageLinks, story: String, fieldPath: String, log: RenderLog) -> String {
        var warnings: [RenderWarning] = []
        let rendered = renderer.render(source) { destination in
            if destination.isImage { return links.resolvingSiteRoot(destination.url) }
            switch links.sitePath(destination.url) {
            case .external:
                return links.resolvingSiteRoot(destination.url)
            case .page(let href):
                return href
            case .missing(let reference):
                warnings.append(RenderWarning(
                    kind: .brokenLink, story: story, fieldPath: fieldPath,
                    message: "broken Markdown link '\(destination.url)': no story '\(reference)'"))
                return links.resolvingSiteRoot(destination.url)
            }
        }
        for url in rendered.refusedURLs {
            warnings.append(RenderWarning(
                kind: .unsafeURL, story: story, fieldPath: fieldPath,
                message: "Markdown link to '\(url)' refused: it could run script"))
        }
        log.add(warnings)
        return rendered.html
    }
}
