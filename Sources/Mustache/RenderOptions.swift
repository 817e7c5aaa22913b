/// What a render does where the Mustache spec leaves the choice to the application: missing
/// partials, URLs in HTML attributes, and the templates a dynamic partial may reach.
public struct RenderOptions: Sendable {
    public var missingPartials: MissingPartialPolicy
    public var urls: URLPolicy
    public var dynamicPartials: DynamicPartialScope

    /// Options for a render; the defaults are the spec's behaviour, with missing partials reported.
    public init(
        missingPartials: MissingPartialPolicy = .report, urls: URLPolicy = .asWritten,
        dynamicPartials: DynamicPartialScope = .anyTemplate
    ) {
        self.missingPartials = missingPartials
        self.urls = urls
        self.dynamicPartials = dynamicPartials
    }

    /// For HTML pages whose values come from content that may be hostile: missing partials
    /// reported, unsafe URLs refused in URL attributes, dynamic partials only under `components/`.
    public static let htmlPages = RenderOptions(missingPartials: .report, urls: .filtered, dynamicPartials: .components)
}

/// What happens to a value a template writes at the start of a URL attribute's value
/// (`href="{{link}}"`, `src='{{image}}'`, `action={{target}}`; see ``HTMLContext``).
public enum URLPolicy: Sendable {
    /// Written as it is, as the spec asks.
    case asWritten
    /// Checked with ``URLSafety`` (the image rule for image and media sources, `srcset` and
    /// `poster`; the link rule elsewhere), together with what the attribute value holds before it;
    /// an unsafe URL is replaced with ``URLSafety/replacement`` and listed in
    /// ``RenderedTemplate/refusedURLs``.
    case filtered
}

/// The templates `{{>*name}}` may render.
public enum DynamicPartialScope: Sendable {
    /// Any template, `components/<name>` first (the spec, which knows no folders).
    case anyTemplate
    /// Only `components/<name>`: a block whose component is `layout`, `404` or `pages/page` is
    /// a missing partial, never that page template.
    case components
}

/// A URL that ``URLPolicy/filtered`` replaced, and where the template wrote it.
public struct RefusedURL: Sendable, Hashable, CustomStringConvertible {
    /// The attribute value as it would have been, unescaped.
    public var url: String
    /// The template's path, as in ``TemplateError/path``.
    public var path: String
    public var line: Int
    public var column: Int

    public init(url: String, path: String, line: Int, column: Int) {
        self.url = url
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`.
    public var location: String { "\(path):\(line):\(column)" }

    public var description: String { "\(location): URL '\(url)' refused: it could run script" }
}
