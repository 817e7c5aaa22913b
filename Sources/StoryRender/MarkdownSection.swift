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
            // Where a problem is: made only for one.
            return .html(html(
                of: source, renderer: renderer, links: links, story: story,
                fieldPath: "{{#markdown}}" + section.trimmingSectionWhitespace() + "{{/markdown}}", log: log))
        })
    }

    /// `source` converted to HTML, its links resolved from the page `links` describes; problems
    /// are reported under `story` and `fieldPath`, which is made only when there is one.
    static func html(
        of source: String, renderer: MarkdownRenderer, links: PageLinks, story: String, fieldPath: @autoclosure () -> String,
        log: RenderLog
    ) -> String {
        var problems: [(kind: RenderWarning.Kind, message: String)] = []
        let rendered = renderer.render(source) { destination in
            if destination.isImage { return links.resolvingSiteRoot(destination.url) }
            switch links.sitePath(destination.url) {
            case .external:
                return links.resolvingSiteRoot(destination.url)
            case .page(let href):
                return href
            case .missing(let reference):
                problems.append((.brokenLink, "broken Markdown link '\(destination.url)': no story '\(reference)'"))
                return links.resolvingSiteRoot(destination.url)
            }
        }
        for url in rendered.refusedURLs {
            problems.append((.unsafeURL, "Markdown link to '\(url)' refused: it could run script"))
        }
        if !problems.isEmpty {
            let fieldPath = fieldPath()
            log.add(problems.map { RenderWarning(kind: $0.kind, story: story, fieldPath: fieldPath, message: $0.message) })
        }
        return rendered.html
    }
}
