import SyntheticSpace

/// The heavy theme (`--theme heavy`): the plain one plus what a real site's theme puts on every
/// page, in storysite and in Hugo.
/// - **Navigation**: 40 links on every page, in the layout. storysite reads them from the global
///   story (``SyntheticSpace/globalStoryJSON(of:)``, `Content/global.json`): `nav_item` blocks
///   whose story multilinks name pages 1–40 by UUID, each shown with its resolved `href` and the
///   target's name (`link.title`). Hugo reads a 40-entry `[[menus.main]]` from `config.toml`,
///   each entry's `pageRef` the page's path, shown with `.URL` and the page's `.Page.Title`: both
///   tools resolve a reference to the page and read its title on every page.
/// - **Blocks through a partial**: every block of the page, and every grid column, goes through
///   a wrapping partial that puts `<div class="block block-<component>">` around the component's
///   template, chosen by name: storysite's `partials/block` around `{{>*component}}`, Hugo's
///   `partial "block.html"` around `partial (printf "components/%s.html" …)`. Hugo's blocks are
///   a front-matter list (`body`, the blocks with their fields, as the story's `body`), except
///   that the article block's text is the page's Markdown body (`.Content`), as in the plain
///   theme.
/// - **Breadcrumbs and backlinks**, as in the plain theme (Hugo's backlinks come from front
///   matter, see ``HugoSite``).
///
/// What differs, as in the plain theme: storysite's hrefs are relative (`../post-1/`), Hugo's
/// site-absolute (`/posts/post-1/`); storysite's richtext and Hugo's Markdown differ in
/// whitespace and attributes (`target="_self"` on richtext links, `id` on Markdown headings).
/// A change to the name of one of pages 1–40 changes every page of either site.
extension Theme {
    /// The storysite templates: the plain theme's, with the navigation in the layout and the
    /// blocks of pages and grids through `partials/block`.
    static let heavyTemplates: [String: String] = {
        var templates = SyntheticSpace.theme
        templates["layout"] = templates["layout"]!.inserting(
            #"<nav class="site-nav"><ul>{{#global.navigation}}<li><a href="{{link.href}}">{{link.title}}</a></li>{{/global.navigation}}</ul></nav>"#
                + "\n",
            after: "<body>\n")
        templates["pages/page"] = templates["pages/page"]!.substituting(
            "{{#body}}{{>*component}}{{/body}}", with: "{{#body}}{{>partials/block}}{{/body}}")
        templates["components/grid"] = templates["components/grid"]!.substituting(
            "{{#columns}}{{>*component}}{{/columns}}", with: "{{#columns}}{{>partials/block}}{{/columns}}")
        templates["partials/block"] = #"<div class="block block-{{component}}">{{>*component}}</div>"#
        return templates
    }()
}

extension HugoSite {
    /// Hugo's heavy layouts, over the plain ones (`plain`, by path): the menu in `baseof.html`,
    /// the page's `body` blocks through `partials/block.html`, and a component partial each.
    static func heavyLayouts(over plain: [String: String]) -> [String: String] {
        var files = plain
        files["layouts/_default/baseof.html"] = plain["layouts/_default/baseof.html"]!.inserting(
            #"<nav class="site-nav"><ul>{{ range .Site.Menus.main }}<li><a href="{{ .URL }}">{{ .Page.Title }}</a></li>{{ end }}</ul></nav>"#
                + "\n",
            after: "<body>\n")
        files["layouts/partials/page.html"] = """
            {{ $page := . }}{{ range .Params.body }}{{ partial "block.html" (dict "block" . "page" $page) }}{{ end }}
            """
        files["layouts/partials/block.html"] = """
            <div class="block block-{{ .block.component }}">{{ partial (printf "components/%s.html" .block.component) . }}</div>
            """
        files["layouts/partials/components/hero.html"] = """
            <section class="hero"><h1>{{ .block.title }}</h1><p class="lede">{{ .block.subtitle }}</p><img src="{{ .block.image }}" alt="{{ .block.title }}"></section>
            """
        files["layouts/partials/components/article.html"] = "<article class=\"prose\">{{ .page.Content }}</article>\n"
        files["layouts/partials/components/grid.html"] = """
            <div class="grid">{{ $page := .page }}{{ range .block.columns }}{{ partial "block.html" (dict "block" . "page" $page) }}{{ end }}</div>

            """
        files["layouts/partials/components/teaser.html"] = """
            <div class="card"><h3><a href="{{ .block.link }}">{{ .block.title }}</a></h3><p>{{ .block.text }}</p></div>
            """
        files["layouts/partials/components/markdown.html"] = "<div class=\"markdown\">{{ .block.text | markdownify }}</div>\n"
        return files
    }

    /// `[[menus.main]]` for each of ``SyntheticSpace/navigationTargets(of:)``, in order; Hugo
    /// resolves each `pageRef` in every language's site to that language's page. Each entry has
    /// its own `identifier` (Hugo keeps one entry per identifier) and no `name` (the template
    /// shows the page's title, as storysite shows the target story's name).
    static func menuConfiguration(stories count: Int) -> String {
        SyntheticSpace.navigationTargets(of: count).map { index in
            "\n[[menus.main]]\nidentifier = \"nav-\(index)\"\npageRef = \"/\(SyntheticSpace.fullSlug(index))\"\nweight = \(index)"
        }.joined() + "\n"
    }
}

extension String {
    /// The text with `insertion` after the first `marker`; `marker` must be in it.
    fileprivate func inserting(_ insertion: String, after marker: String) -> String {
        guard let range = range(of: marker) else { preconditionFailure("the theme no longer has '\(marker)'") }
        return replacingCharacters(in: range, with: marker + insertion)
    }

    /// The text with `target` replaced; `target` must be in it.
    fileprivate func substituting(_ target: String, with replacement: String) -> String {
        precondition(contains(target), "the theme no longer has '\(target)'")
        return replacingOccurrences(of: target, with: replacement)
    }
}
