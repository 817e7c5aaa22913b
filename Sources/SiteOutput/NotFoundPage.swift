/// The built-in `404.html`, used when the templates have no `404.mustache`: a plain, accessible
/// page with a link home. It is served at any path, so its link is absolute from the site root.
public enum NotFoundPage {
    public static func html(siteTitle: String?, rootPath: String) -> String {
        let title = siteTitle.map { "Page not found · " + $0.markupEscaped } ?? "Page not found"
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>body{font:1.1rem/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;color:#1a1a1a}a{color:#0b57d0}</style>
            </head>
            <body>
            <main>
            <h1>Page not found</h1>
            <p>The page you asked for does not exist or has moved.</p>
            <p><a href="\(rootPath.markupEscaped)">Go to the home page</a></p>
            </main>
            </body>
            </html>

            """
    }
}
